package rt

// What the generated code of a schema declares and the runtime uses; not
// copied into generated packages.

// Message is the interface every struct of a schema implements.
type Message interface {
	AppendMessage(b []byte) ([]byte, error)
	UnmarshalMessageWith(b []byte, opts DecodeOptions) error
}

const (
	MessageHeaderSize     = 10
	DefaultMaxMessageSize = 64 << 20
)

var helloEntries []struct {
	id          uint16
	fingerprint uint64
	name        string
}

func knownTypeID(id uint16) bool { return false }

func NewMessage(typeID uint16) Message { return nil }

func DecodeMessageWith(b []byte, opts DecodeOptions) (Message, error) { return nil, nil }
