package sdp.runtime;

/**
 * A MessageReader's error for a bad message: which message of the stream (from 0, a hello included), where it
 * starts (counted from the start of the stream), the decode error (its offset counted from the message's first
 * byte), and whether the reader can go on. {@link #getMessage()} reads
 * {@code message <index> at stream offset <start>: } and the decode error's text (docs/api.md, "One layout of
 * error text").
 */
public final class StreamException extends java.lang.Exception {
    private static final long serialVersionUID = 1L;

    private final int index;
    private final long start;
    private final DecodeException error;
    private final boolean skippable;

    StreamException(int index, long start, DecodeException error, boolean skippable) {
        super("message " + index + " at stream offset " + start + ": " + error.getMessage(), error, false, false);
        this.index = index;
        this.start = start;
        this.error = error;
        this.skippable = skippable;
    }

    /** @return the index of the bad message, from 0 */
    public int index() {
        return index;
    }

    /** @return the offset of the message's first byte (its header), from the start of the stream */
    public long start() {
        return start;
    }

    /** @return the offset of the problem, from the start of the stream: start() plus the decode error's offset */
    public long offset() {
        return start + error.offset();
    }

    /** @return the decode error; its offset counts from the start of the message */
    public DecodeException error() {
        return error;
    }

    /** @return the broken rule's name */
    public java.lang.String rule() {
        return error.rule();
    }

    /**
     * @return whether the reader read the whole message, so that the next read goes on with the next one;
     *     after any other error every read throws this error again
     */
    public boolean skippable() {
        return skippable;
    }
}
