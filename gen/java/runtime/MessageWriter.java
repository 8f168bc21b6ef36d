package sdp.runtime;

/** Writes messages to an OutputStream, one write call per message. */
public final class MessageWriter {
    private final java.io.OutputStream out;
    private int maxSize = Sdp.DEFAULT_MAX_MESSAGE_SIZE;

    /**
     * Makes a writer with the default maximum payload size (64 MiB).
     *
     * @param out where the messages go
     */
    public MessageWriter(java.io.OutputStream out) {
        this.out = out;
    }

    /**
     * Sets the largest payload written; a larger message is refused and nothing is written.
     *
     * @param maxSize bytes; 0 or less: the default (64 MiB)
     * @return this writer
     */
    public MessageWriter maxSize(int maxSize) {
        this.maxSize = maxSize <= 0 ? Sdp.DEFAULT_MAX_MESSAGE_SIZE : maxSize;
        return this;
    }

    /** @return the largest payload written */
    public int maxSize() {
        return maxSize;
    }

    /**
     * Encodes m as a message and writes it.
     *
     * @param m the message
     * @throws EncodeException if m has no encoding (its rule and path), or its payload is over the maximum (rule
     *     and path {@code message}); nothing is written
     * @throws java.io.IOException if the stream fails
     */
    public void write(SdpMessage m) throws EncodeException, java.io.IOException {
        byte[] b = m.encodeMessage();
        if (b.length - Sdp.MESSAGE_HEADER_SIZE > maxSize) {
            throw new EncodeException(EncodeException.MESSAGE, "message", "a payload of " + (b.length - Sdp.MESSAGE_HEADER_SIZE)
                    + " bytes is over the writer's maximum of " + maxSize);
        }
        out.write(b);
    }

    /**
     * Writes a hello, the fingerprint of every struct of the schema, so that the reader checks that both ends
     * use the same version of the schema. Call it before the first message.
     *
     * @throws java.io.IOException if the stream fails
     */
    public void writeHello() throws java.io.IOException {
        out.write(Messages.encodeHello());
    }
}
