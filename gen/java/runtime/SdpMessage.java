package sdp.runtime;

/** A struct of the schema: every struct can be framed as a message. */
public interface SdpMessage {
    /** @return the struct's message type id */
    int typeId();

    /**
     * @return the encoding of the value
     * @throws EncodeException if the value has no encoding
     */
    byte[] encode() throws EncodeException;

    /**
     * @return the value framed as a message: the 10-byte header, then its encoding
     * @throws EncodeException if the value has no encoding
     */
    byte[] encodeMessage() throws EncodeException;

    /**
     * Decodes b, which must hold exactly one value, into this value; on an error this value is reset to its
     * default.
     *
     * @param b the input
     * @param options the limits, or null for the defaults
     * @throws DecodeException if the input breaks a rule
     */
    void decodeInto(byte[] b, DecodeOptions options) throws DecodeException;

    /**
     * Decodes a message that must be of this struct into this value; on an error this value is reset to its
     * default.
     *
     * @param b the message: header and payload
     * @param options the limits, or null for the defaults
     * @throws DecodeException if the header or the payload breaks a rule
     */
    void decodeMessageInto(byte[] b, DecodeOptions options) throws DecodeException;
}
