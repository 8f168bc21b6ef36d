package sdp.runtime;

/**
 * An encoder's error: a value that has no encoding. A null where the schema
 * has no optional, a number out of its unsigned range, a fixed array of
 * another length, a string with a lone surrogate, a length over the wire
 * format's u32, or a message over a writer's maximum size.
 */
public final class EncodeException extends java.lang.Exception {
    private static final long serialVersionUID = 1L;

    private final java.lang.String path;
    private final java.lang.String detail;

    /**
     * Makes an error.
     *
     * @param path the schema field ({@code Type.field}) or type that holds the value
     * @param detail what is wrong
     */
    public EncodeException(java.lang.String path, java.lang.String detail) {
        super(path + ": " + detail, null, false, false);
        this.path = path;
        this.detail = detail;
    }

    /** @return the schema field ({@code Type.field}) or type that holds the value */
    public java.lang.String path() {
        return path;
    }

    /** @return what is wrong */
    public java.lang.String detail() {
        return detail;
    }
}
