package sdp.runtime;




/** The decoder's state: the input, the offset, the depth and the memory total. Internal. */
final class SdpReader {
    final byte[] b;
    final java.nio.ByteBuffer bb;
    final int base;
    final int end;
    int off;
    int depth;
    final int maxDepth;
    long memUsed;
    final long memLimit;

    /**
     * A reader of b[start, end); offsets in errors count from base, the limits are sized for payload bytes.
     */
    SdpReader(byte[] b, int base, int start, int end, int payload, DecodeOptions o) {
        if (o == null) {
            o = DecodeOptions.DEFAULT;
        }
        this.b = b;
        this.bb = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        this.base = base;
        this.off = start;
        this.end = end;
        this.maxDepth = o.maxDepth();
        this.memLimit = o.memoryLimitFor(payload);
    }

    DecodeException fail(int at, java.lang.String rule, java.lang.String msg) {
        return new DecodeException(rule, at - base, msg);
    }

    DecodeException truncated(int at) {
        return fail(at, DecodeException.TRUNCATED, "the input ends inside a value");
    }

    void finish() throws DecodeException {
        if (off != end) {
            throw fail(off, DecodeException.TRAILING, (end - off) + " bytes after the value");
        }
    }

    void enter() throws DecodeException {
        if (++depth > maxDepth) {
            throw fail(off, DecodeException.DEPTH, "nesting deeper than " + maxDepth);
        }
    }

    void need(int n) throws DecodeException {
        if (end - off < n) {
            throw truncated(off);
        }
    }

    int u8() throws DecodeException {
        need(1);
        return b[off++] & 0xFF;
    }

    byte i8() throws DecodeException {
        need(1);
        return b[off++];
    }

    boolean bool() throws DecodeException {
        need(1);
        int v = b[off];
        if ((v & 0xFE) != 0) {
            throw fail(off, DecodeException.BOOL, "bool byte " + (v & 0xFF));
        }
        off++;
        return v != 0;
    }

    boolean present() throws DecodeException {
        need(1);
        int v = b[off];
        if ((v & 0xFE) != 0) {
            throw fail(off, DecodeException.PRESENCE, "presence byte " + (v & 0xFF));
        }
        off++;
        return v != 0;
    }

    void chargePresent(long each) throws DecodeException {
        charge(off - 1, 1, each);
    }

    int u16() throws DecodeException {
        need(2);
        int v = bb.getShort(off) & 0xFFFF;
        off += 2;
        return v;
    }

    short i16() throws DecodeException {
        need(2);
        short v = bb.getShort(off);
        off += 2;
        return v;
    }

    int i32() throws DecodeException {
        need(4);
        int v = bb.getInt(off);
        off += 4;
        return v;
    }

    long u32() throws DecodeException {
        return i32() & 0xFFFFFFFFL;
    }

    long i64() throws DecodeException {
        need(8);
        long v = bb.getLong(off);
        off += 8;
        return v;
    }

    float f32() throws DecodeException {
        need(4);
        float v = bb.getFloat(off);
        off += 4;
        return v;
    }

    double f64() throws DecodeException {
        need(8);
        double v = bb.getDouble(off);
        off += 8;
        return v;
    }

    /** Reads a count of elements of at least minElem bytes each and checks it against what is left. */
    int count(int minElem) throws DecodeException {
        int at = off;
        long n = u32();
        if (n * minElem > end - off) {
            throw fail(at, DecodeException.COUNT, "count " + n + " exceeds the " + (end - off) + " bytes left");
        }
        return (int) n;
    }

    /** Charges n elements of nominal size each to the memory total; the count was just read. */
    int chargeCount(int n, long each) throws DecodeException {
        if (n > 0) {
            charge(off - 4, n, each);
        }
        return n;
    }

    void charge(int at, long n, long each) throws DecodeException {
        if (n > (memLimit - memUsed) / each) {
            throw fail(at, DecodeException.MEMORY, n + " values of " + each
                    + " bytes would exceed the memory limit of " + memLimit + " bytes");
        }
        memUsed += n * each;
    }

    /** Reads a string; old is returned when it holds the same ASCII text (no copy). */
    java.lang.String str(java.lang.String old) throws DecodeException {
        int at = off;
        int n = count(1);
        int s = off;
        off += n;
        byte[] b = this.b;
        if (old != null && old.length() == n) {
            int i = 0;
            while (i < n && old.charAt(i) == b[s + i]) {
                i++;
            }
            if (i == n) {
                return old;
            }
        }
        for (int i = s; i < s + n; i++) {
            if (b[i] < 0) {
                if (!validUtf8(b, i, s + n)) {
                    throw fail(at, DecodeException.UTF8, "a string that is not UTF-8");
                }
                return new java.lang.String(b, s, n, java.nio.charset.StandardCharsets.UTF_8);
            }
        }
        return new java.lang.String(b, s, n, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /**
     * Reports whether b[i, e) is UTF-8 as Unicode defines it (table 3-7): no overlong form, no surrogate, nothing
     * above U+10FFFF, nothing cut off.
     */
    static boolean validUtf8(byte[] b, int i, int e) {
        while (i < e) {
            int c = b[i];
            if (c >= 0) {
                i++;
                continue;
            }
            c &= 0xFF;
            if (c < 0xC2) {
                return false;
            }
            if (c < 0xE0) {
                if (e - i < 2 || (b[i + 1] & 0xC0) != 0x80) {
                    return false;
                }
                i += 2;
                continue;
            }
            if (c < 0xF0) {
                if (e - i < 3) {
                    return false;
                }
                int c1 = b[i + 1] & 0xFF;
                if ((c1 & 0xC0) != 0x80 || (b[i + 2] & 0xC0) != 0x80 || c == 0xE0 && c1 < 0xA0 || c == 0xED && c1 >= 0xA0) {
                    return false;
                }
                i += 3;
                continue;
            }
            if (c < 0xF5) {
                if (e - i < 4) {
                    return false;
                }
                int c1 = b[i + 1] & 0xFF;
                if ((c1 & 0xC0) != 0x80 || (b[i + 2] & 0xC0) != 0x80 || (b[i + 3] & 0xC0) != 0x80
                        || c == 0xF0 && c1 < 0x90 || c == 0xF4 && c1 >= 0x90) {
                    return false;
                }
                i += 4;
                continue;
            }
            return false;
        }
        return true;
    }

    byte[] bytes(byte[] old) throws DecodeException {
        int n = count(1);
        byte[] a = old != null && old.length == n ? old : new byte[n];
        java.lang.System.arraycopy(b, off, a, 0, n);
        off += n;
        return a;
    }

    /** Checks that n elements of size each remain, else fails at the first incomplete one. */
    private void fixed(int n, int size) throws DecodeException {
        long need = (long) n * size;
        if (end - off < need) {
            int k = (end - off) / size;
            throw truncated(off + k * size).index(k);
        }
    }

    byte[] bytes(byte[] old, int n) throws DecodeException {
        fixed(n, 1);
        byte[] a = old != null && old.length == n ? old : new byte[n];
        java.lang.System.arraycopy(b, off, a, 0, n);
        off += n;
        return a;
    }

    /** The reader's buffer positioned at the offset, for a view; the offset moves n bytes past it. */
    private java.nio.ByteBuffer at(int n) {
        Sdp.window(bb, off, n);
        off += n;
        return bb;
    }

    short[] shorts(short[] old, int n) {
        short[] a = old != null && old.length == n ? old : new short[n];
        if (n < 16) {
            for (int i = 0; i < n; i++, off += 2) {
                a[i] = bb.getShort(off);
            }
        } else {
            at(n * 2).asShortBuffer().get(a);
            Sdp.reset(bb);
        }
        return a;
    }

    int[] ints(int[] old, int n) {
        int[] a = old != null && old.length == n ? old : new int[n];
        if (n < 16) {
            for (int i = 0; i < n; i++, off += 4) {
                a[i] = bb.getInt(off);
            }
        } else {
            at(n * 4).asIntBuffer().get(a);
            Sdp.reset(bb);
        }
        return a;
    }

    long[] longs(long[] old, int n) {
        long[] a = old != null && old.length == n ? old : new long[n];
        if (n < 16) {
            for (int i = 0; i < n; i++, off += 8) {
                a[i] = bb.getLong(off);
            }
        } else {
            at(n * 8).asLongBuffer().get(a);
            Sdp.reset(bb);
        }
        return a;
    }

    float[] floats(float[] old, int n) {
        float[] a = old != null && old.length == n ? old : new float[n];
        if (n < 16) {
            for (int i = 0; i < n; i++, off += 4) {
                a[i] = bb.getFloat(off);
            }
        } else {
            at(n * 4).asFloatBuffer().get(a);
            Sdp.reset(bb);
        }
        return a;
    }

    double[] doubles(double[] old, int n) {
        double[] a = old != null && old.length == n ? old : new double[n];
        if (n < 16) {
            for (int i = 0; i < n; i++, off += 8) {
                a[i] = bb.getDouble(off);
            }
        } else {
            at(n * 8).asDoubleBuffer().get(a);
            Sdp.reset(bb);
        }
        return a;
    }

    short[] i16s(short[] old) throws DecodeException {
        return shorts(old, count(2));
    }

    int[] i32s(int[] old) throws DecodeException {
        return ints(old, count(4));
    }

    long[] i64s(long[] old) throws DecodeException {
        return longs(old, count(8));
    }

    float[] f32s(float[] old) throws DecodeException {
        return floats(old, count(4));
    }

    double[] f64s(double[] old) throws DecodeException {
        return doubles(old, count(8));
    }

    short[] i16s(short[] old, int n) throws DecodeException {
        fixed(n, 2);
        return shorts(old, n);
    }

    int[] i32s(int[] old, int n) throws DecodeException {
        fixed(n, 4);
        return ints(old, n);
    }

    long[] i64s(long[] old, int n) throws DecodeException {
        fixed(n, 8);
        return longs(old, n);
    }

    float[] f32s(float[] old, int n) throws DecodeException {
        fixed(n, 4);
        return floats(old, n);
    }

    double[] f64s(double[] old, int n) throws DecodeException {
        fixed(n, 8);
        return doubles(old, n);
    }
}
