package sdp.runtime;

/**
 * A decoder's error: the input breaks a rule of the SDP wire format
 * (docs/wire-format.md). {@link #rule()} names the rule, {@link #offset()}
 * is the byte offset of the item being read (from the first byte of the
 * input; for a message, of its header) and {@link #path()} names the value
 * that holds the problem ({@code plugins[3].parameters[0].unit}, empty at
 * the top level, {@code message} for a message header). {@link #getMessage()}
 * reads {@code <rule> at offset <offset> in <path>: <detail>}, without
 * {@code  in <path>} when the path is empty (docs/api.md, "One layout of
 * error text").
 */
public final class DecodeException extends java.lang.Exception {
    private static final long serialVersionUID = 1L;

    /** The input ends inside a value. */
    public static final java.lang.String TRUNCATED = "truncated";
    /** Bytes remain after the top-level value. */
    public static final java.lang.String TRAILING = "trailing";
    /** A bool byte other than 0 or 1. */
    public static final java.lang.String BOOL = "bool";
    /** An optional's presence byte other than 0 or 1. */
    public static final java.lang.String PRESENCE = "presence";
    /** An enum number that names no value. */
    public static final java.lang.String ENUM = "enum";
    /** A union tag with no variant. */
    public static final java.lang.String UNION_TAG = "union_tag";
    /** A string that is not valid UTF-8. */
    public static final java.lang.String UTF8 = "utf8";
    /** A count or length larger than the input can hold. */
    public static final java.lang.String COUNT = "count";
    /** Nesting deeper than the depth limit. */
    public static final java.lang.String DEPTH = "depth";
    /** A bad message header or payload length. */
    public static final java.lang.String MESSAGE = "message";
    /** More memory than the memory limit. */
    public static final java.lang.String MEMORY = "memory";
    /** A stream's hello is from another version of the schema. */
    public static final java.lang.String SCHEMA = "schema";

    private final java.lang.String rule;
    private final int offset;
    private java.lang.String path;
    private final java.lang.String detail;

    /**
     * Makes an error for a rule at an offset, with an empty path.
     *
     * @param rule the rule's name
     * @param offset the byte offset
     * @param detail what is wrong
     */
    public DecodeException(java.lang.String rule, int offset, java.lang.String detail) {
        super(detail, null, false, false);
        this.rule = rule;
        this.offset = offset;
        this.path = "";
        this.detail = detail;
    }

    /** @return the name of the broken rule, one of the constants of this class */
    public java.lang.String rule() {
        return rule;
    }

    /** @return the byte offset of the item the decoder was reading */
    public int offset() {
        return offset;
    }

    /** @return the path of the value that holds the problem */
    public java.lang.String path() {
        return path;
    }

    /** @return what is wrong, without rule, offset and path */
    public java.lang.String detail() {
        return detail;
    }

    /**
     * Prefixes the path with a field or variant name (nothing when name is empty).
     *
     * @param name the field's schema name
     * @return this error
     */
    public DecodeException at(java.lang.String name) {
        if (name.isEmpty()) {
            return this;
        }
        if (path.isEmpty() || path.charAt(0) == '[') {
            path = name + path;
        } else {
            path = name + "." + path;
        }
        return this;
    }

    /**
     * Prefixes the path with an element index.
     *
     * @param i the index
     * @return this error
     */
    public DecodeException index(int i) {
        if (path.isEmpty() || path.charAt(0) == '[') {
            path = "[" + i + "]" + path;
        } else {
            path = "[" + i + "]." + path;
        }
        return this;
    }

    /**
     * Sets the whole path.
     *
     * @param path the path
     * @return this error
     */
    public DecodeException withPath(java.lang.String path) {
        this.path = path;
        return this;
    }

    @java.lang.Override
    public java.lang.String getMessage() {
        return rule + " at offset " + offset + (path.isEmpty() ? "" : " in " + path) + ": " + detail;
    }
}
