package sdp.runtime;




/** The encoder's state: a buffer of exactly the encoded size and the position; it writes what the size pass checked. Internal. */
final class SdpWriter {
    final byte[] b;
    final java.nio.ByteBuffer bb;
    int pos;

    SdpWriter(byte[] b, int pos) {
        this.b = b;
        this.bb = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        this.pos = pos;
    }

    void bool(boolean v) {
        b[pos++] = (byte) (v ? 1 : 0);
    }

    void u8(int v) {
        b[pos++] = (byte) v;
    }

    void i8(byte v) {
        b[pos++] = v;
    }

    void u16(int v) {
        bb.putShort(pos, (short) v);
        pos += 2;
    }

    void i16(short v) {
        bb.putShort(pos, v);
        pos += 2;
    }

    void u32(long v) {
        bb.putInt(pos, (int) v);
        pos += 4;
    }

    void i32(int v) {
        bb.putInt(pos, v);
        pos += 4;
    }

    void i64(long v) {
        bb.putLong(pos, v);
        pos += 8;
    }

    void f32(float v) {
        bb.putInt(pos, java.lang.Float.floatToRawIntBits(v));
        pos += 4;
    }

    void f64(double v) {
        bb.putLong(pos, java.lang.Double.doubleToRawLongBits(v));
        pos += 8;
    }

    void count(int n) {
        bb.putInt(pos, n);
        pos += 4;
    }

    /** Writes a string the size pass checked (no lone surrogate). */
    void str(java.lang.String s) {
        int n = s.length();
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
            } else if (java.lang.Character.isHighSurrogate(c)) {
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
