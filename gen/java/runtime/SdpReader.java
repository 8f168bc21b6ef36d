package sdp.runtime;




/**
 * The decoder's state: the input, the offset, the depth and the memory total. Internal.
 *
 * <p>A thread reuses the reader of its last decode while the input is the same array (a receive buffer, a
 * MessageReader's), with its views of the array for bulk copies: decoding into an existing value then allocates
 * nothing. The thread holds that reader through a soft reference, which the collector clears when memory runs short.
 */
final class SdpReader {
    private static final java.lang.ThreadLocal<java.lang.ref.SoftReference<SdpReader>> LAST = new java.lang.ThreadLocal<>();

    final byte[] b;
    final java.nio.ByteBuffer bb;
    int base;
    int end;
    int off;
    int depth;
    int maxDepth;
    long memUsed;
    long memLimit;
    // Views of b for bulk copies, by the offset of their first element modulo its size.
    private java.nio.ShortBuffer[] shortViews;
    private java.nio.IntBuffer[] intViews;
    private java.nio.LongBuffer[] longViews;
    private java.nio.FloatBuffer[] floatViews;
    private java.nio.DoubleBuffer[] doubleViews;

    private SdpReader(byte[] b) {
        this.b = b;
        this.bb = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * A reader of b[start, end); offsets in errors count from base, the limits are sized for payload bytes.
     */
    static SdpReader of(byte[] b, int base, int start, int end, int payload, DecodeOptions o) {
        java.lang.ref.SoftReference<SdpReader> ref = LAST.get();
        SdpReader r = ref == null ? null : ref.get();
        if (r == null || r.b != b) {
            r = new SdpReader(b);
            LAST.set(new java.lang.ref.SoftReference<>(r));
        }
        if (o == null) {
            o = DecodeOptions.DEFAULT;
        }
        r.base = base;
        r.off = start;
        r.end = end;
        r.depth = 0;
        r.memUsed = 0;
        r.maxDepth = o.maxDepth();
        r.memLimit = o.memoryLimitFor(payload);
        return r;
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

    /** Reads a string; old is returned when it holds the same text (no copy, nothing allocated). */
    java.lang.String str(java.lang.String old) throws DecodeException {
        int at = off;
        int n = count(1);
        int s = off;
        off += n;
        byte[] b = this.b;
        if (old != null && old.length() == n) {
            // The same ASCII text: a char equals a byte only when both are below 0x80.
            int i = 0;
            while (i < n && old.charAt(i) == b[s + i]) {
                i++;
            }
            if (i == n) {
                return old;
            }
        }
        if (old == null) {
            // The JDK's decoder copies ASCII at once, but replaces what is not UTF-8. Its result has n chars,
            // none U+FFFD, only when every byte is ASCII (a valid sequence of 2 to 4 bytes gives 1 or 2 chars, a
            // replaced byte U+FFFD); anything else is checked here.
            java.lang.String r = new java.lang.String(b, s, n, java.nio.charset.StandardCharsets.UTF_8);
            if (r.length() == n && r.indexOf(0xFFFD) < 0 || validUtf8(b, s, s + n)) {
                return r;
            }
            throw fail(at, DecodeException.UTF8, "a string that is not UTF-8");
        }
        // Into an old value: the same non-ASCII text keeps it too, with nothing allocated.
        if (!validUtf8(b, s, s + n)) {
            throw fail(at, DecodeException.UTF8, "a string that is not UTF-8");
        }
        if (old.length() <= n && sameText(old, b, s, s + n)) {
            return old;
        }
        return new java.lang.String(b, s, n, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Reports whether the valid UTF-8 b[i, e) is the text of s. */
    private static boolean sameText(java.lang.String s, byte[] b, int i, int e) {
        int k = 0;
        int m = s.length();
        while (i < e) {
            int c = b[i];
            int cp;
            if (c >= 0) {
                cp = c;
                i++;
            } else if ((c & 0xE0) == 0xC0) {
                cp = (c & 0x1F) << 6 | b[i + 1] & 0x3F;
                i += 2;
            } else if ((c & 0xF0) == 0xE0) {
                cp = (c & 0x0F) << 12 | (b[i + 1] & 0x3F) << 6 | b[i + 2] & 0x3F;
                i += 3;
            } else {
                cp = (c & 0x07) << 18 | (b[i + 1] & 0x3F) << 12 | (b[i + 2] & 0x3F) << 6 | b[i + 3] & 0x3F;
                i += 4;
                if (m - k < 2 || s.charAt(k) != java.lang.Character.highSurrogate(cp)
                        || s.charAt(k + 1) != java.lang.Character.lowSurrogate(cp)) {
                    return false;
                }
                k += 2;
                continue;
            }
            if (k == m || s.charAt(k) != cp) {
                return false;
            }
            k++;
        }
        return k == m;
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

    short[] shorts(short[] old, int n) {
        short[] a = old != null && old.length == n ? old : new short[n];
        if (n < 16) {
            for (int i = 0; i < n; i++, off += 2) {
                a[i] = bb.getShort(off);
            }
        } else {
            shortView(n).get(a);
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
            intView(n).get(a);
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
            longView(n).get(a);
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
            floatView(n).get(a);
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
            doubleView(n).get(a);
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

    /** A view of the n elements at the offset, which moves past them. */
    private java.nio.ShortBuffer shortView(int n) {
        if (shortViews == null) {
            shortViews = new java.nio.ShortBuffer[2];
        }
        int r = off % 2;
        java.nio.ShortBuffer v = shortViews[r];
        if (v == null) {
            Sdp.window(bb, r, b.length - r);
            v = bb.asShortBuffer();
            Sdp.reset(bb);
            shortViews[r] = v;
        }
        Sdp.window(v, (off - r) / 2, n);
        off += n * 2;
        return v;
    }

    /** A view of the n elements at the offset, which moves past them. */
    private java.nio.IntBuffer intView(int n) {
        if (intViews == null) {
            intViews = new java.nio.IntBuffer[4];
        }
        int r = off % 4;
        java.nio.IntBuffer v = intViews[r];
        if (v == null) {
            Sdp.window(bb, r, b.length - r);
            v = bb.asIntBuffer();
            Sdp.reset(bb);
            intViews[r] = v;
        }
        Sdp.window(v, (off - r) / 4, n);
        off += n * 4;
        return v;
    }

    /** A view of the n elements at the offset, which moves past them. */
    private java.nio.LongBuffer longView(int n) {
        if (longViews == null) {
            longViews = new java.nio.LongBuffer[8];
        }
        int r = off % 8;
        java.nio.LongBuffer v = longViews[r];
        if (v == null) {
            Sdp.window(bb, r, b.length - r);
            v = bb.asLongBuffer();
            Sdp.reset(bb);
            longViews[r] = v;
        }
        Sdp.window(v, (off - r) / 8, n);
        off += n * 8;
        return v;
    }

    /** A view of the n elements at the offset, which moves past them. */
    private java.nio.FloatBuffer floatView(int n) {
        if (floatViews == null) {
            floatViews = new java.nio.FloatBuffer[4];
        }
        int r = off % 4;
        java.nio.FloatBuffer v = floatViews[r];
        if (v == null) {
            Sdp.window(bb, r, b.length - r);
            v = bb.asFloatBuffer();
            Sdp.reset(bb);
            floatViews[r] = v;
        }
        Sdp.window(v, (off - r) / 4, n);
        off += n * 4;
        return v;
    }

    /** A view of the n elements at the offset, which moves past them. */
    private java.nio.DoubleBuffer doubleView(int n) {
        if (doubleViews == null) {
            doubleViews = new java.nio.DoubleBuffer[8];
        }
        int r = off % 8;
        java.nio.DoubleBuffer v = doubleViews[r];
        if (v == null) {
            Sdp.window(bb, r, b.length - r);
            v = bb.asDoubleBuffer();
            Sdp.reset(bb);
            doubleViews[r] = v;
        }
        Sdp.window(v, (off - r) / 8, n);
        off += n * 8;
        return v;
    }
}
