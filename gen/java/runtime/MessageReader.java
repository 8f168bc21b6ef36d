package sdp.runtime;

/**
 * Reads messages from an InputStream one at a time. It refuses a declared payload length above its maximum
 * before allocating anything for it, checks a hello that starts the stream, and reports a bad message with its
 * index and stream offset (docs/wire-format.md, "Streams").
 */
public final class MessageReader {
    private final java.io.InputStream in;
    private long maxSize = Sdp.DEFAULT_MAX_MESSAGE_SIZE;
    private boolean requireHello;
    private DecodeOptions options = DecodeOptions.DEFAULT;
    private java.util.Map<java.lang.Integer, SdpMessage> kept;
    private byte[] buf = new byte[512];
    private StreamException failed;
    private boolean checked;
    private int index;
    private long offset;
    private int size;
    private boolean hello;

    /**
     * Makes a reader with the default maximum payload size (64 MiB).
     *
     * @param in the stream
     */
    public MessageReader(java.io.InputStream in) {
        this.in = in;
    }

    /**
     * @param maxSize the largest payload accepted, in bytes (up to 4 GiB - 1: no maximum); 0 or less: the default
     * @return this reader
     */
    public MessageReader maxSize(long maxSize) {
        this.maxSize = maxSize <= 0 ? Sdp.DEFAULT_MAX_MESSAGE_SIZE : maxSize;
        return this;
    }

    /** @return the largest payload accepted */
    public long maxSize() {
        return maxSize;
    }

    /**
     * @param require whether to refuse a stream that does not start with a hello (rule schema)
     * @return this reader
     */
    public MessageReader requireHello(boolean require) {
        this.requireHello = require;
        return this;
    }

    /**
     * @param options the decode options of every message
     * @return this reader
     */
    public MessageReader options(DecodeOptions options) {
        this.options = options == null ? DecodeOptions.DEFAULT : options;
        return this;
    }

    /**
     * With reuse, the reader keeps the last value of each type and decodes the next message of that type into it
     * (as decodeInto does): read() returns the same object again, valid until the next message of its type. A
     * steady stream of similar messages then decodes with little allocation.
     *
     * @param reuse whether to decode into the last value of the message's type
     * @return this reader
     */
    public MessageReader reuse(boolean reuse) {
        this.kept = reuse ? new java.util.HashMap<>() : null;
        return this;
    }

    /** @return whether the stream began with a hello that agreed with this schema */
    public boolean schemaChecked() {
        return checked;
    }

    /**
     * Reads and decodes the next message.
     *
     * @return the message, or null at the end of the stream (between two messages)
     * @throws StreamException for a bad message; after one that is not skippable every call throws it again
     * @throws java.io.IOException if the stream fails
     */
    public SdpMessage read() throws StreamException, java.io.IOException {
        if (failed != null) {
            throw failed;
        }
        while (true) {
            size = 0;
            hello = false;
            SdpMessage m;
            try {
                m = readOne();
            } catch (DecodeException e) {
                StreamException se = new StreamException(index, offset, e, size > 0);
                if (size > 0) {
                    index++;
                    offset += size;
                } else {
                    failed = se;
                }
                throw se;
            }
            if (size > 0) {
                index++;
                offset += size;
            }
            if (!hello) {
                return m;
            }
            checked = true;
        }
    }

    private int fill(byte[] b, int from, int n) throws java.io.IOException {
        int got = 0;
        while (got < n) {
            int k = in.read(b, from + got, n - got);
            if (k < 0) {
                break;
            }
            got += k;
        }
        return got;
    }

    private long skip(long n) throws java.io.IOException {
        long got = 0;
        byte[] scratch = buf;
        while (got < n) {
            int k = in.read(scratch, 0, (int) java.lang.Math.min(scratch.length, n - got));
            if (k < 0) {
                break;
            }
            got += k;
        }
        return got;
    }

    private SdpMessage readOne() throws DecodeException, java.io.IOException {
        int h = fill(buf, 0, Sdp.MESSAGE_HEADER_SIZE);
        if (h == 0) {
            return null;
        }
        if (h < Sdp.MESSAGE_HEADER_SIZE) {
            throw new DecodeException(DecodeException.TRUNCATED, 0, "the stream ends inside a message header")
                    .withPath("message");
        }
        byte[] b = buf;
        if (b[0] != 'S' || b[1] != 'D' || b[2] != 'P' || b[3] != '2') {
            throw new DecodeException(DecodeException.MESSAGE, 0, "bad magic (want \"SDP2\")").withPath("message");
        }
        int id = (b[4] & 0xFF) | (b[5] & 0xFF) << 8;
        long n = ((b[6] & 0xFF) | (b[7] & 0xFF) << 8 | (b[8] & 0xFF) << 16 | (b[9] & 0xFF) << 24) & 0xFFFFFFFFL;
        boolean isHello = id == Sdp.HELLO_TYPE_ID && index == 0;
        if (requireHello && index == 0 && !isHello) {
            throw new DecodeException(DecodeException.SCHEMA, 4,
                    "the stream does not start with a hello (type id 0), and this reader requires one").withPath("message");
        }
        if (!isHello && !Messages.isKnownTypeId(id)) {
            DecodeException err = new DecodeException(DecodeException.MESSAGE, 4, "unknown message type id " + id)
                    .withPath("message");
            if (n > maxSize) {
                throw err;
            }
            if (skip(n) < n) {
                throw err;
            }
            size = Sdp.MESSAGE_HEADER_SIZE + (int) n;
            throw err;
        }
        if (n > maxSize) {
            throw new DecodeException(DecodeException.MESSAGE, 6, "payload length " + n + " exceeds the limit " + maxSize)
                    .withPath("message");
        }
        if (n > java.lang.Integer.MAX_VALUE - Sdp.MESSAGE_HEADER_SIZE) {
            // More than a Java array holds: skip it to tell a cut payload from a whole one.
            if (skip(n) < n) {
                throw cutPayload();
            }
            size = (int) java.lang.Math.min(java.lang.Integer.MAX_VALUE, Sdp.MESSAGE_HEADER_SIZE + n);
            throw new DecodeException(DecodeException.MESSAGE, 6, "a payload of " + n + " bytes does not fit a Java array")
                    .withPath("message");
        }
        int total = Sdp.MESSAGE_HEADER_SIZE + (int) n;
        // The buffer grows with the bytes that arrive, not with the length the header declares.
        int have = Sdp.MESSAGE_HEADER_SIZE;
        while (have < total) {
            if (b.length == have) {
                byte[] nb = new byte[(int) java.lang.Math.min(total, java.lang.Math.max(4096L, 2L * have))];
                java.lang.System.arraycopy(b, 0, nb, 0, have);
                buf = nb;
                b = nb;
            }
            int want = java.lang.Math.min(b.length, total) - have;
            int got = fill(b, have, want);
            have += got;
            if (got < want) {
                throw cutPayload();
            }
        }
        if (isHello) {
            checkHello(b, (int) n);
            size = total;
            hello = true;
            return null;
        }
        size = total;
        if (kept == null) {
            return Messages.decodePayload(id, b, total, options);
        }
        SdpMessage into = kept.get(id);
        if (into == null) {
            into = Messages.newMessage(id);
            kept.put(id, into);
        }
        Messages.decodePayloadInto(into, b, total, options);
        return into;
    }

    private static DecodeException cutPayload() {
        return new DecodeException(DecodeException.TRUNCATED, Sdp.MESSAGE_HEADER_SIZE,
                "the stream ends inside a message payload").withPath("message");
    }

    private static void checkHello(byte[] b, int n) throws DecodeException {
        java.nio.ByteBuffer p = java.nio.ByteBuffer.wrap(b, 0, Sdp.MESSAGE_HEADER_SIZE + n)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int h = Sdp.MESSAGE_HEADER_SIZE;
        if (n < 4) {
            throw new DecodeException(DecodeException.MESSAGE, 6, "a hello's payload is shorter than its count")
                    .withPath("message");
        }
        long count = p.getInt(h) & 0xFFFFFFFFL;
        if (n != 4 + 10 * count) {
            throw new DecodeException(DecodeException.MESSAGE, 6,
                    "a hello of " + count + " structs has a payload of " + n + " bytes").withPath("message");
        }
        int prev = -1;
        for (int i = 0; i < count; i++) {
            int at = 4 + 10 * i;
            int id = p.getShort(h + at) & 0xFFFF;
            if (id == 0 || id <= prev) {
                throw new DecodeException(DecodeException.MESSAGE, h + at, "hello entry " + i + " has type id " + id
                        + ": type ids must be above 0 and increasing").withPath("message");
            }
            prev = id;
            long theirs = p.getLong(h + at + 2);
            for (int k = 0; k < Messages.HELLO_IDS.length; k++) {
                if (Messages.HELLO_IDS[k] == id && Messages.HELLO_FINGERPRINTS[k] != theirs) {
                    throw new DecodeException(DecodeException.SCHEMA, h + at + 2, "the writer's schema has another version of "
                            + Messages.HELLO_NAMES[k] + " (fingerprint " + hex(theirs) + ", here "
                            + hex(Messages.HELLO_FINGERPRINTS[k]) + "); compare the two schemas with sdp compat")
                            .withPath("message");
                }
            }
        }
    }

    private static java.lang.String hex(long v) {
        java.lang.String s = java.lang.Long.toHexString(v);
        while (s.length() < 16) {
            s = "0" + s;
        }
        return s;
    }
}
