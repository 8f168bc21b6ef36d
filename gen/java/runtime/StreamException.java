package sdp.runtime;

/**
 * A MessageReader's error for a bad message: which message of the stream (from 0), where (counted from the
 * start of the stream), the decode error, and whether the reader can go on.
 */
public final class StreamException extends java.lang.Exception {
    private static final long serialVersionUID = 1L;

    private final int index;
    private final long offset;
    private final DecodeException error;
    private final boolean skippable;

    StreamException(int index, long offset, DecodeException error, boolean skippable) {
        super("message #" + index + " at stream offset " + offset + ": " + error.getMessage(), error, false, false);
        this.index = index;
        this.offset = offset;
        this.error = error;
        this.skippable = skippable;
    }

    /** @return the index of the bad message, from 0 */
    public int index() {
        return index;
    }

    /** @return the offset of the problem, from the start of the stream */
    public long offset() {
        return offset;
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
