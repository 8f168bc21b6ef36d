package sdp.runtime;

/** Constants of the wire format and the helpers the generated code shares. */
public final class Sdp {
    private Sdp() {}

    /** The size of a message header: magic, type id, payload length. */
    public static final int MESSAGE_HEADER_SIZE = 10;
    /** The default maximum payload length of a MessageReader and a MessageWriter: 64 MiB. */
    public static final int DEFAULT_MAX_MESSAGE_SIZE = 64 << 20;
    /** The type id of a hello, the message that starts a stream with the schema check. */
    public static final int HELLO_TYPE_ID = 0;

    /**
     * Formats a u64 held in a long.
     *
     * @param v the bits of the u64
     * @return its decimal text
     */
    public static java.lang.String unsigned(long v) {
        return java.lang.Long.toUnsignedString(v);
    }

    static EncodeException isNull() {
        return new EncodeException(EncodeException.TYPE, "", "null where the schema has no optional");
    }

    static <T> T nn(T v) throws EncodeException {
        if (v == null) {
            throw isNull();
        }
        return v;
    }

    /** Refuses a null union (rule union_tag: it holds no variant). */
    static <T> T variant(T v) throws EncodeException {
        if (v == null) {
            throw new EncodeException(EncodeException.UNION_TAG, "", "null holds no variant of the union");
        }
        return v;
    }

    /** The error of an element of another class than the array's (put in through an unchecked cast). */
    static EncodeException wrongType(java.lang.ClassCastException e) {
        return new EncodeException(EncodeException.TYPE, "", "a value of another class: " + e.getMessage());
    }

    static void u8(int v) throws EncodeException {
        if ((v & ~0xFF) != 0) {
            throw new EncodeException(EncodeException.RANGE, "", v + " is out of the range of u8");
        }
    }

    static void u16(int v) throws EncodeException {
        if ((v & ~0xFFFF) != 0) {
            throw new EncodeException(EncodeException.RANGE, "", v + " is out of the range of u16");
        }
    }

    static void u32(long v) throws EncodeException {
        if ((v >>> 32) != 0) {
            throw new EncodeException(EncodeException.RANGE, "", v + " is out of the range of u32");
        }
    }

    /**
     * The UTF-8 length of s; refuses null (type), a lone surrogate (utf8) and lengths over u32 (count). The sum
     * of the sizes is checked against Java's arrays once, by total.
     */
    static long strSize(java.lang.String s) throws EncodeException {
        if (s == null) {
            throw isNull();
        }
        int n = s.length();
        int i = 0;
        while (i < n && s.charAt(i) < 0x80) {
            i++;
        }
        if (i == n) {
            return n;
        }
        long size = n;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                if (c < 0x800) {
                    size++;
                } else if (java.lang.Character.isSurrogate(c)) {
                    if (!java.lang.Character.isHighSurrogate(c) || i + 1 == n
                            || !java.lang.Character.isLowSurrogate(s.charAt(i + 1))) {
                        throw new EncodeException(EncodeException.UTF8, "",
                                "a lone surrogate at index " + i + " has no UTF-8 encoding");
                    }
                    size += 2;
                    i++;
                } else {
                    size += 2;
                }
            }
        }
        if (size > 0xFFFFFFFFL) {
            throw new EncodeException(EncodeException.COUNT, "", "a string of " + size + " UTF-8 bytes is over 4 GiB");
        }
        return size;
    }

    static int fixed(int length, int want) throws EncodeException {
        if (length != want) {
            throw new EncodeException(EncodeException.LENGTH, "", "a fixed array of " + length + " elements, the schema says " + want);
        }
        return length;
    }

    static long add(long size, long n) {
        return size + n;
    }

    /** The encoded size, refused (size) when the encoding and a message header would not fit a Java array. */
    static int total(long size) throws EncodeException {
        if (size > java.lang.Integer.MAX_VALUE - 8 - MESSAGE_HEADER_SIZE) {
            throw new EncodeException(EncodeException.SIZE, "", "an encoding of " + size + " bytes does not fit a Java array");
        }
        return (int) size;
    }

    static void header(byte[] b, int typeId, int n) {
        header(b, 0, typeId, n);
    }

    /** Writes a message header for a payload of n bytes at b[at]. */
    static void header(byte[] b, int at, int typeId, int n) {
        b[at] = 'S';
        b[at + 1] = 'D';
        b[at + 2] = 'P';
        b[at + 3] = '2';
        b[at + 4] = (byte) typeId;
        b[at + 5] = (byte) (typeId >>> 8);
        b[at + 6] = (byte) n;
        b[at + 7] = (byte) (n >>> 8);
        b[at + 8] = (byte) (n >>> 16);
        b[at + 9] = (byte) (n >>> 24);
    }

    /** Checks a message's header; want is the type id expected, or -1 for any the schema knows. */
    static int checkHeader(byte[] b, int len, int want, java.lang.String type) throws DecodeException {
        if (len < MESSAGE_HEADER_SIZE) {
            throw new DecodeException(DecodeException.TRUNCATED, 0, "a message header needs 10 bytes, got " + len)
                    .withPath("message");
        }
        if (b[0] != 'S' || b[1] != 'D' || b[2] != 'P' || b[3] != '2') {
            throw new DecodeException(DecodeException.MESSAGE, 0, "bad magic (want \"SDP2\")").withPath("message");
        }
        int id = (b[4] & 0xFF) | (b[5] & 0xFF) << 8;
        if (want >= 0 && id != want) {
            throw new DecodeException(DecodeException.MESSAGE, 4, "type id " + id + " is not " + type + " (" + want + ")")
                    .withPath("message");
        }
        if (want < 0 && !Messages.isKnownTypeId(id)) {
            throw new DecodeException(DecodeException.MESSAGE, 4, "unknown message type id " + id).withPath("message");
        }
        long n = ((b[6] & 0xFF) | (b[7] & 0xFF) << 8 | (b[8] & 0xFF) << 16 | (b[9] & 0xFF) << 24) & 0xFFFFFFFFL;
        if (n != len - MESSAGE_HEADER_SIZE) {
            throw new DecodeException(DecodeException.MESSAGE, 6,
                    "payload length " + n + " but " + (len - MESSAGE_HEADER_SIZE) + " bytes follow").withPath("message");
        }
        return id;
    }

    /** The bytes of a ByteBuffer's remaining content, without a copy when it has an array from index 0. */
    static byte[] array(java.nio.ByteBuffer in) {
        if (in.hasArray() && in.arrayOffset() == 0 && in.position() == 0
                && in.remaining() == in.array().length) {
            return in.array();
        }
        byte[] a = new byte[in.remaining()];
        in.duplicate().get(a);
        return a;
    }

    // Buffer's methods are called through a java.nio.Buffer, whose position
    // and limit return a Buffer on every Java and Android version
    // (ByteBuffer's covariant overrides came with Java 9).

    /** Sets a buffer's limit to at + n and its position to at, for a view of those n bytes. */
    static void window(java.nio.Buffer b, int at, int n) {
        b.limit(at + n);
        b.position(at);
    }

    /** Sets a buffer's position back to 0 and its limit to its capacity. */
    static void reset(java.nio.Buffer b) {
        b.clear();
    }

    /**
     * Moves a buffer's position n bytes on.
     *
     * @param b the buffer
     * @param n the bytes written
     */
    public static void advance(java.nio.Buffer b, int n) {
        b.position(b.position() + n);
    }

    /** Copies an encoding into a ByteBuffer at its position and moves the position past it. */
    static void put(java.nio.ByteBuffer out, byte[] enc) {
        out.put(enc);
    }

    static <T> java.util.List<T> fill(int n, java.util.function.Supplier<T> def) {
        java.util.ArrayList<T> l = new java.util.ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            l.add(def.get());
        }
        return l;
    }

    /**
     * Deep equality of field values: arrays by content, lists and optionals element by element.
     *
     * @param a a value
     * @param b another
     * @return whether they are equal
     */
    static boolean eq(java.lang.Object a, java.lang.Object b) {
        if (a == b) {
            return true;
        }
        if (a == null || b == null) {
            return false;
        }
        if (a instanceof java.util.List && b instanceof java.util.List) {
            java.util.List<?> x = (java.util.List<?>) a;
            java.util.List<?> y = (java.util.List<?>) b;
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!eq(x.get(i), y.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof java.util.Optional && b instanceof java.util.Optional) {
            return eq(((java.util.Optional<?>) a).orElse(null), ((java.util.Optional<?>) b).orElse(null));
        }
        return java.util.Objects.deepEquals(a, b);
    }

    static int hash(java.lang.Object a) {
        if (a == null) {
            return 0;
        }
        if (a instanceof java.util.List) {
            int h = 1;
            for (java.lang.Object e : (java.util.List<?>) a) {
                h = 31 * h + hash(e);
            }
            return h;
        }
        if (a instanceof java.util.Optional) {
            return 1 + hash(((java.util.Optional<?>) a).orElse(null));
        }
        return java.util.Arrays.deepHashCode(new java.lang.Object[] {a});
    }

    static java.lang.String str(java.lang.Object a) {
        if (a instanceof java.util.List) {
            java.lang.StringBuilder sb = new java.lang.StringBuilder("[");
            for (java.lang.Object e : (java.util.List<?>) a) {
                if (sb.length() > 1) {
                    sb.append(", ");
                }
                sb.append(str(e));
            }
            return sb.append(']').toString();
        }
        if (a instanceof java.util.Optional) {
            java.util.Optional<?> o = (java.util.Optional<?>) a;
            return o.isPresent() ? "Optional[" + str(o.get()) + "]" : "Optional.empty";
        }
        if (a instanceof java.lang.String) {
            return '"' + (java.lang.String) a + '"';
        }
        java.lang.String s = java.util.Arrays.deepToString(new java.lang.Object[] {a});
        return s.substring(1, s.length() - 1);
    }
}
