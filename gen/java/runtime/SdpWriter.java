package sdp.runtime;




/**
 * The encoder's state: a buffer and the position. Internal.
 *
 * <p>encode() and encodeMessage() write in one pass into the thread's scratch buffer, which grows, checking as they
 * go what only a wrong value breaks (a range, a fixed length, a lone surrogate, a null union; a null elsewhere
 * fails as a NullPointerException, an element of another class as a ClassCastException); on any of these, and
 * for a value larger than the scratch buffer grows to, the caller runs the size pass, which finds the first
 * problem with its rule and path, and writes into an array of the size it counted. encodeTo and the caller's
 * second pass write into a buffer of exactly the size the size pass checked, and nothing fails there.
 */
final class SdpWriter {
    /**
     * The most the scratch buffer grows to (64 MiB): a larger value is written again after the size pass, into an
     * array of its size, so that one too large for an array is refused before anything is allocated for it.
     */
    private static final int SCRATCH_MAX = 64 << 20;
    private static final java.lang.ThreadLocal<java.lang.ref.SoftReference<SdpWriter>> LAST = new java.lang.ThreadLocal<>();

    /** A value the one-pass encoder cannot write: the caller's size pass says why. */
    static final class Unwritable extends java.lang.RuntimeException {
        private static final long serialVersionUID = 1L;

        Unwritable() {
            super("a value that has no encoding", null, false, false);
        }
    }

    static final Unwritable BAD = new Unwritable();

    byte[] b;
    java.nio.ByteBuffer bb;
    int pos;
    private final boolean grows;
    private boolean busy;

    /** A writer into b, which holds what the size pass counted from pos on. */
    SdpWriter(byte[] b, int pos) {
        this.b = b;
        this.bb = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        this.pos = pos;
        this.grows = false;
    }

    private SdpWriter() {
        this.b = new byte[256];
        this.bb = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        this.grows = true;
    }

    /**
     * The thread's scratch writer (held through a soft reference: the collector frees it when memory runs short), at position at; take()
     * returns what was written after it.
     */
    static SdpWriter scratch(int at) {
        java.lang.ref.SoftReference<SdpWriter> ref = LAST.get();
        SdpWriter w = ref == null ? null : ref.get();
        if (w == null || w.busy) {
            w = new SdpWriter();
            LAST.set(new java.lang.ref.SoftReference<>(w));
        }
        w.busy = true;
        w.pos = at;
        return w;
    }

    /** @return a copy of b[0, pos); the scratch writer is free again */
    byte[] take() {
        busy = false;
        return java.util.Arrays.copyOf(b, pos);
    }

    /** Makes room for n more bytes in a scratch writer; a writer of the exact size has it. */
    void ensure(long n) {
        if (b.length - pos < n && grows) {
            grow(n);
        }
    }

    private void grow(long n) {
        long want = pos + n;
        if (want > SCRATCH_MAX) {
            busy = false;
            throw BAD; // the caller's size pass then checks it and sizes an array for it
        }
        int len = (int) java.lang.Math.max(want, java.lang.Math.min(SCRATCH_MAX, 2L * b.length));
        b = java.util.Arrays.copyOf(b, len);
        bb = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    /** Checks a fixed array's length. */
    void fixed(int length, int want) {
        if (length != want) {
            throw BAD;
        }
    }

    // Writes at an offset of a run whose room was made: no position moves.

    void boolAt(int at, boolean v) {
        b[at] = (byte) (v ? 1 : 0);
    }

    void u8At(int at, int v) {
        if ((v & ~0xFF) != 0) {
            throw BAD;
        }
        b[at] = (byte) v;
    }

    void i8At(int at, byte v) {
        b[at] = v;
    }

    void u16At(int at, int v) {
        if ((v & ~0xFFFF) != 0) {
            throw BAD;
        }
        bb.putShort(at, (short) v);
    }

    void i16At(int at, short v) {
        bb.putShort(at, v);
    }

    void u32At(int at, long v) {
        if ((v >>> 32) != 0) {
            throw BAD;
        }
        bb.putInt(at, (int) v);
    }

    void i32At(int at, int v) {
        bb.putInt(at, v);
    }

    void i64At(int at, long v) {
        bb.putLong(at, v);
    }

    void f32At(int at, float v) {
        bb.putInt(at, java.lang.Float.floatToRawIntBits(v));
    }

    void f64At(int at, double v) {
        bb.putLong(at, java.lang.Double.doubleToRawLongBits(v));
    }

    void bool(boolean v) {
        ensure(1);
        b[pos++] = (byte) (v ? 1 : 0);
    }

    void u8(int v) {
        if ((v & ~0xFF) != 0) {
            throw BAD;
        }
        ensure(1);
        b[pos++] = (byte) v;
    }

    void i8(byte v) {
        ensure(1);
        b[pos++] = v;
    }

    void u16(int v) {
        if ((v & ~0xFFFF) != 0) {
            throw BAD;
        }
        ensure(2);
        bb.putShort(pos, (short) v);
        pos += 2;
    }

    void i16(short v) {
        ensure(2);
        bb.putShort(pos, v);
        pos += 2;
    }

    void u32(long v) {
        if ((v >>> 32) != 0) {
            throw BAD;
        }
        ensure(4);
        bb.putInt(pos, (int) v);
        pos += 4;
    }

    void i32(int v) {
        ensure(4);
        bb.putInt(pos, v);
        pos += 4;
    }

    void i64(long v) {
        ensure(8);
        bb.putLong(pos, v);
        pos += 8;
    }

    void f32(float v) {
        ensure(4);
        bb.putInt(pos, java.lang.Float.floatToRawIntBits(v));
        pos += 4;
    }

    void f64(double v) {
        ensure(8);
        bb.putLong(pos, java.lang.Double.doubleToRawLongBits(v));
        pos += 8;
    }

    void count(int n) {
        ensure(4);
        bb.putInt(pos, n);
        pos += 4;
    }

    /** Writes a string (a lone surrogate: BAD). */
    void str(java.lang.String s) {
        int n = s.length();
        ensure(4 + 3L * n);
        byte[] b = this.b;
        int start = pos + 4;
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                break;
            }
            b[start + i] = (byte) c;
            i++;
        }
        int p = i == n ? start + n : strTail(s, i, start + i);
        bb.putInt(pos, p - start);
        pos = p;
    }

    /** Writes s from index i, at least one of whose characters is not ASCII, at p; returns the end. */
    private int strTail(java.lang.String s, int i, int p) {
        int n = s.length();
        byte[] b = this.b;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                b[p++] = (byte) c;
            } else if (c < 0x800) {
                b[p++] = (byte) (0xC0 | c >> 6);
                b[p++] = (byte) (0x80 | c & 0x3F);
            } else if (java.lang.Character.isSurrogate(c)) {
                if (!java.lang.Character.isHighSurrogate(c) || i + 1 == n
                        || !java.lang.Character.isLowSurrogate(s.charAt(i + 1))) {
                    throw BAD;
                }
                int cp = java.lang.Character.toCodePoint(c, s.charAt(++i));
                b[p++] = (byte) (0xF0 | cp >> 18);
                b[p++] = (byte) (0x80 | cp >> 12 & 0x3F);
                b[p++] = (byte) (0x80 | cp >> 6 & 0x3F);
                b[p++] = (byte) (0x80 | cp & 0x3F);
            } else {
                b[p++] = (byte) (0xE0 | c >> 12);
                b[p++] = (byte) (0x80 | c >> 6 & 0x3F);
                b[p++] = (byte) (0x80 | c & 0x3F);
            }
        }
        return p;
    }

    void bytes(byte[] a) {
        ensure(a.length);
        java.lang.System.arraycopy(a, 0, b, pos, a.length);
        pos += a.length;
    }

    /** The writer's buffer positioned at the position, for a view; the position moves n bytes past it. */
    private java.nio.ByteBuffer at(int n) {
        Sdp.window(bb, pos, n);
        pos += n;
        return bb;
    }

    void shorts(short[] a) {
        ensure((long) a.length * 2);
        if (a.length < 16) {
            for (short v : a) {
                i16(v);
            }
            return;
        }
        at(a.length * 2).asShortBuffer().put(a);
        Sdp.reset(bb);
    }

    void ints(int[] a) {
        ensure((long) a.length * 4);
        if (a.length < 16) {
            for (int v : a) {
                i32(v);
            }
            return;
        }
        at(a.length * 4).asIntBuffer().put(a);
        Sdp.reset(bb);
    }

    void longs(long[] a) {
        ensure((long) a.length * 8);
        if (a.length < 16) {
            for (long v : a) {
                i64(v);
            }
            return;
        }
        at(a.length * 8).asLongBuffer().put(a);
        Sdp.reset(bb);
    }

    void floats(float[] a) {
        ensure((long) a.length * 4);
        if (a.length < 16) {
            for (float v : a) {
                f32(v);
            }
            return;
        }
        at(a.length * 4).asFloatBuffer().put(a);
        Sdp.reset(bb);
    }

    void doubles(double[] a) {
        ensure((long) a.length * 8);
        if (a.length < 16) {
            for (double v : a) {
                f64(v);
            }
            return;
        }
        at(a.length * 8).asDoubleBuffer().put(a);
        Sdp.reset(bb);
    }
}
