package sdp.runtime;

// A stand-in for the Messages class the generator writes for each schema, so
// that the runtime compiles on its own. Not copied into generated packages.
final class Messages {
    private Messages() {}

    static final int[] HELLO_IDS = {};
    static final long[] HELLO_FINGERPRINTS = {};
    static final java.lang.String[] HELLO_NAMES = {};

    static boolean isKnownTypeId(int id) {
        return false;
    }

    static SdpMessage decodePayload(int id, byte[] b, int len, DecodeOptions options) throws DecodeException {
        throw new DecodeException(DecodeException.MESSAGE, 4, "unknown message type id " + id);
    }

    static void decodePayloadInto(SdpMessage into, byte[] b, int len, DecodeOptions options) throws DecodeException {
        throw new DecodeException(DecodeException.MESSAGE, 4, "unknown message type id " + into.typeId());
    }

    static SdpMessage newMessage(int id) {
        return null;
    }

    static byte[] encodeHello() {
        return new byte[0];
    }
}
