package sdp.runtime;

/**
 * An encoder's error: a value that has no encoding, found before anything is written. A null where the schema
 * has no optional, a number out of its unsigned range, a fixed array of
 * another length, a string with a lone surrogate, a length over the wire
 * format's u32, or a message over a writer's maximum size.
 */
public final class EncodeException extends java.lang.Exception {
    private static final long serialVersionUID = 1L;

    private java.lang.String path;
    private final java.lang.String detail;

    /**
     * Makes an error.
     *
     * @param path the path of the value, as a DecodeException's ({@code plugins[3].name}; {@code message} for a
     *     writer's refusal)
     * @param detail what is wrong
     */
    public EncodeException(java.lang.String path, java.lang.String detail) {
        super(detail, null, false, false);
        this.path = path;
        this.detail = detail;
    }

    /** @return the path of the value that has no encoding, empty for the top-level value */
    public java.lang.String path() {
        return path;
    }

    /**
     * Prefixes the path with a field or variant name.
     *
     * @param name the schema name
     * @return this error
     */
    public EncodeException at(java.lang.String name) {
        path = path.isEmpty() || path.charAt(0) == '[' ? name + path : name + "." + path;
        return this;
    }

    /**
     * Prefixes the path with an element index.
     *
     * @param i the index
     * @return this error
     */
    public EncodeException index(int i) {
        path = path.isEmpty() || path.charAt(0) == '[' ? "[" + i + "]" + path : "[" + i + "]." + path;
        return this;
    }

    @java.lang.Override
    public java.lang.String getMessage() {
        return (path.isEmpty() ? "" : path + ": ") + detail;
    }

    /** @return what is wrong */
    public java.lang.String detail() {
        return detail;
    }
}
