package sdp.runtime;

/**
 * Options of a decoder: the depth limit and the memory limit of the wire
 * format's rules 9 and 11. Zero means the default for each. Immutable.
 */
public final class DecodeOptions {
    /** The nesting limit unless one is set. */
    public static final int DEFAULT_MAX_DEPTH = 64;

    /** The defaults. */
    public static final DecodeOptions DEFAULT = new DecodeOptions(0, 0);

    private final int maxDepth;
    private final long memoryLimit;

    private DecodeOptions(int maxDepth, long memoryLimit) {
        this.maxDepth = maxDepth;
        this.memoryLimit = memoryLimit;
    }

    /** @return the default options */
    public static DecodeOptions defaults() {
        return DEFAULT;
    }

    /**
     * @param maxDepth the deepest nesting accepted (a top-level struct is at depth 1); 0 or less: 64
     * @return options with that depth limit
     */
    public DecodeOptions withMaxDepth(int maxDepth) {
        return new DecodeOptions(maxDepth, memoryLimit);
    }

    /**
     * @param memoryLimit the memory a decoded value may need, in bytes of nominal sizes (rule 11); 0: 32
     *     times the input's length plus 1 MiB
     * @return options with that memory limit
     */
    public DecodeOptions withMemoryLimit(long memoryLimit) {
        return new DecodeOptions(maxDepth, memoryLimit);
    }

    /** @return the depth limit in effect */
    public int maxDepth() {
        return maxDepth <= 0 ? DEFAULT_MAX_DEPTH : maxDepth;
    }

    /** @return the memory limit as set (0: the default) */
    public long memoryLimit() {
        return memoryLimit;
    }

    /**
     * @param n the input's length (a message's payload length)
     * @return the memory limit in effect for an input of n bytes
     */
    public long memoryLimitFor(int n) {
        return memoryLimit > 0 ? memoryLimit : 32L * n + (1L << 20);
    }
}
