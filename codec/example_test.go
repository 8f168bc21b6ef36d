package codec_test

import (
	"fmt"

	"sdp/codec"
	"sdp/schema"
)

func Example() {
	s, err := schema.Parse("shapes.sdp", []byte(`
struct Point { x: f64, y: f64 }
struct Reading { id: u64, value: f32, note: ?str }
`))
	if err != nil {
		panic(err)
	}
	msg, err := codec.EncodeMessage(s, "Point", []byte(`{"x": 3.14, "y": 2.71}`))
	fmt.Printf("%x %v\n", msg, err)

	b, _ := codec.Encode(s, "Reading", []byte(`{"id": "18446744073709551615", "value": "NaN"}`))
	js, _ := codec.Decode(s, "Reading", b, codec.Options{})
	fmt.Print(string(js))

	_, err = codec.Decode(s, "Reading", append(b[:12:12], 2), codec.Options{})
	fmt.Println(err)
	// Output:
	// 534450320100100000001f85eb51b81e0940ae47e17a14ae0540 <nil>
	// {
	//   "id": 18446744073709551615,
	//   "value": "NaN",
	//   "note": null
	// }
	// presence at offset 12 in note: presence byte is 0x02, not 0 or 1
}
