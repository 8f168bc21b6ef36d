package sdp.runtime;

/**
 * An encoder's error: a value that has no encoding (docs/wire-format.md, "Values that have no encoding"), found
 * before anything is written. {@link #rule()} names the rule it breaks ({@code type} for a null where the schema
 * has no optional, {@code union_tag} for a null union, {@code range} for a number out of its unsigned range,
 * {@code length} for a fixed array of another length, {@code utf8} for a string with a lone surrogate,
 * {@code count} for a length over the wire format's u32, {@code size} for an encoding over Java's 2 GiB arrays,
 * {@code message} for a message over a writer's maximum size) and {@link #path()} the value, as a
 * DecodeException's path. {@link #getMessage()} reads {@code <rule> in <path>: <detail>}, or
 * {@code <rule>: <detail>} with an empty path (docs/api.md, "One layout of error text").
 */
public final class EncodeException extends java.lang.Exception {
    private static final long serialVersionUID = 1L;

    /** An enum that holds a number none of its values has. */
    public static final java.lang.String ENUM = "enum";
    /** A union that holds no variant (null). */
    public static final java.lang.String UNION_TAG = "union_tag";
    /** A string that holds a lone surrogate. */
    public static final java.lang.String UTF8 = "utf8";
    /** A fixed array that holds another number of elements. */
    public static final java.lang.String LENGTH = "length";
    /** A string of more than 4,294,967,295 UTF-8 bytes. */
    public static final java.lang.String COUNT = "count";
    /** An integer outside its type (a u8, u16 or u32 held in a wider Java type). */
    public static final java.lang.String RANGE = "range";
    /** A value of another type, or null where the schema has no optional. */
    public static final java.lang.String TYPE = "type";
    /** An encoding larger than a Java array can hold; the path is empty. */
    public static final java.lang.String SIZE = "size";
    /** A message whose payload is over the writer's maximum size; the path is {@code message}. */
    public static final java.lang.String MESSAGE = "message";

    private final java.lang.String rule;
    private java.lang.String path;
    private final java.lang.String detail;

    /**
     * Makes an error.
     *
     * @param rule the rule's name, one of the constants of this class
     * @param path the path of the value, as a DecodeException's ({@code plugins[3].name}; {@code message} for a
     *     writer's refusal; empty for the top-level value)
     * @param detail what is wrong
     */
    public EncodeException(java.lang.String rule, java.lang.String path, java.lang.String detail) {
        super(detail, null, false, false);
        this.rule = rule;
        this.path = path;
        this.detail = detail;
    }

    /** @return the name of the broken rule, one of the constants of this class */
    public java.lang.String rule() {
        return rule;
    }

    /** @return the path of the value that has no encoding, empty for the top-level value */
    public java.lang.String path() {
        return path;
    }

    /**
     * Prefixes the path with a field or variant name (nothing when name is empty).
     *
     * @param name the schema name
     * @return this error
     */
    public EncodeException at(java.lang.String name) {
        if (name.isEmpty()) {
            return this;
        }
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
        return rule + (path.isEmpty() ? "" : " in " + path) + ": " + detail;
    }

    /** @return what is wrong, without rule and path */
    public java.lang.String detail() {
        return detail;
    }
}
