package conformance

import (
	"encoding/binary"

	"sdp/codec"
	"sdp/schema"
)

// ReferenceTestee answers the testee protocol with the reference codec:
// decode to JSON, encode the JSON again.
func ReferenceTestee(s *schema.Schema) TesteeFunc {
	return func(op byte, typeID uint16, input []byte) (byte, []byte) {
		switch op {
		case OpRoundtrip:
			st := s.StructByID(typeID)
			if st == nil {
				return StatusBroken, []byte("unknown type id")
			}
			js, err := codec.Decode(s, st.Name, input, codec.Options{})
			if err != nil {
				return rejected(err)
			}
			out, err := codec.Encode(s, st.Name, js)
			if err != nil {
				return StatusBroken, []byte("decoded JSON does not encode: " + err.Error())
			}
			return StatusOK, out
		case OpMessage:
			name, js, err := codec.DecodeMessage(s, input, codec.Options{})
			if err != nil {
				return rejected(err)
			}
			out, err := codec.EncodeMessage(s, name, js)
			if err != nil {
				return StatusBroken, []byte("decoded JSON does not encode: " + err.Error())
			}
			return StatusOK, out
		case OpStream:
			if len(input) < 4 {
				return StatusBroken, []byte("a stream request needs the u32 maximum payload length")
			}
			want, rule := ReferenceStream(s, binary.LittleEndian.Uint32(input), input[4:])
			if rule != "" {
				return StatusRejected, []byte(rule + ": rejected by the reference stream reader")
			}
			return StatusOK, want
		case OpStreamAll:
			if len(input) < 4 {
				return StatusBroken, []byte("a stream request needs the u32 maximum payload length")
			}
			return StatusOK, ReferenceStreamAll(s, binary.LittleEndian.Uint32(input), input[4:])
		}
		return StatusBroken, []byte("unknown op")
	}
}

// rejected is the reference codec's rejection in the testee protocol, with
// its detail: "<rule> @<offset> <path>: <message>".
func rejected(err error) (byte, []byte) {
	if r, ok := ReferenceRejection(err); ok {
		r.Msg = err.Error()
		return StatusRejected, []byte(r.String())
	}
	return StatusBroken, []byte("not a *codec.DecodeError: " + err.Error())
}
