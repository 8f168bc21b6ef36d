// Command greenhouse encodes a batch of sensor readings with the Go code
// that `go generate` makes from sensors.sdp, and decodes it back. It is a
// module of its own, as yours is: it uses the sdp command, not the SDP
// repository's packages.
//
//	go install ./cmd/sdp          # once, in an SDP checkout: sdp in $(go env GOPATH)/bin
//	go generate && go run .       # here (generate again after editing sensors.sdp)
package main

//go:generate sdp gen --lang go --out sensors sensors.sdp

import (
	"errors"
	"fmt"
	"log"

	"example.com/greenhouse/sensors"
)

func main() {
	battery := float32(0.87)
	batch := sensors.Batch{
		Device: "greenhouse-1",
		Readings: []sensors.Reading{
			{Sensor: "air", Unit: sensors.UnitCelsius, Value: 21.5, TakenAt: 1700000000},
			{Sensor: "soil", Unit: sensors.UnitPercent, Value: 43, TakenAt: 1700000001},
		},
		Battery: &battery,
	}
	data, err := batch.MarshalBinary()
	if err != nil {
		log.Fatal(err)
	}
	var back sensors.Batch
	if err := back.UnmarshalBinary(data); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s sent %d readings (%s first) in %d bytes; round trip ok\n",
		back.Device, len(back.Readings), back.Readings[0].Unit, len(data))

	err = back.UnmarshalBinary(data[:len(data)-3])
	var de *sensors.DecodeError
	if errors.As(err, &de) {
		fmt.Printf("truncated input: %v\n", err)
	}
}
