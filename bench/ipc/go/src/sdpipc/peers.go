package main

// The Go side of every pair: the SDP stream reader and writer (the
// generated MessageReader/MessageWriter over a 64 KiB bufio), the raw-pipe
// floor (the same message bytes, no encoding or decoding) and the
// length-delimited protobuf reader.

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"syscall"
	"unsafe"

	"google.golang.org/protobuf/proto"

	"benchpb/ipcpb"
	"benchpb/pb"
	"sdpgen/arrays"
	"sdpgen/ipc"
	"sdpgen/leaderboard"
)

const bufSize = 64 << 10

// monoNS is CLOCK_MONOTONIC in nanoseconds: one clock for every process of
// the machine, so a writer's start and a reader's end can be subtracted.
func monoNS() int64 {
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 1, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		panic(e)
	}
	return ts.Sec*1e9 + ts.Nsec
}

// The checksums every reader computes over the decoded values (a wrapping
// u64 sum; floats by their bit patterns), the same in Swift, Rust and C++.
func sumStructA(m *leaderboard.StructA) uint64 {
	s := uint64(len(m.Name)) + uint64(m.BirthDay) + uint64(len(m.Phone)) + uint64(int64(m.Siblings)) + math.Float64bits(m.Money)
	if m.Spouse {
		s++
	}
	for i := 0; i < len(m.Name); i++ {
		s += uint64(m.Name[i])
	}
	for i := 0; i < len(m.Phone); i++ {
		s += uint64(m.Phone[i])
	}
	return s
}

// sumI16 reads every 64th sample and the last: summing all 48,000 took a
// Go reader ~25 µs per message, more than the socket floor's whole time per
// message (14 µs), while the decoders being measured fill every sample
// either way (bench/README.md, "IPC").
func sumI16(m *arrays.I16Array) uint64 { return sumSamples(m.Samples) }

// i16Stride is the checksum's step through the samples, the same in every
// language's reader.
const i16Stride = 64

// sumSamples is sumI16 over samples of either width (protobuf carries them
// as int32).
func sumSamples[T int16 | int32](v []T) uint64 {
	s := uint64(len(v))
	for i := 0; i < len(v); i += i16Stride {
		s += uint64(int64(v[i]))
	}
	if len(v) > 0 {
		s += uint64(int64(v[len(v)-1]))
	}
	return s
}

func f32(v float32) uint64 { return uint64(math.Float32bits(v)) }
func f64(v float64) uint64 { return math.Float64bits(v) }

func sumSensor(m *ipc.SensorFrame) uint64 {
	s := m.Seq + uint64(m.TimestampNs) + uint64(m.ReceivedNs) + uint64(m.DeviceID) + uint64(m.SensorID) +
		uint64(m.Status) + uint64(m.Flags) + uint64(m.Quality) + uint64(m.ErrorCount)
	s += f32(m.AccelX) + f32(m.AccelY) + f32(m.AccelZ) + f32(m.GyroX) + f32(m.GyroY) + f32(m.GyroZ) +
		f32(m.MagX) + f32(m.MagY) + f32(m.MagZ) + f32(m.Temperature) + f32(m.Humidity)
	s += f64(m.Pressure) + f64(m.Altitude) + f64(m.Latitude) + f64(m.Longitude)
	s += f32(m.Speed) + f32(m.Heading) + f32(m.BatteryV) + f32(m.Rssi) + f32(m.Snr)
	s += uint64(len(m.Label))
	for i := 0; i < len(m.Label); i++ {
		s += uint64(m.Label[i])
	}
	return s
}

// sensorFrame is the workload's sensor frame: deterministic values (there
// is no datagen document for it); the runner encodes it once into
// sensor.sdpb, which every writer decodes, so every writer sends the same bytes.
func sensorFrame() *ipc.SensorFrame {
	return &ipc.SensorFrame{
		Seq: 1234567, TimestampNs: 1_764_000_000_123_456_789, ReceivedNs: 1_764_000_000_123_901_234,
		DeviceID: 40021, SensorID: 7, Status: 2, Flags: 0x5a, Quality: 918, ErrorCount: 3,
		AccelX: 0.0123, AccelY: -0.981, AccelZ: 9.8061, GyroX: 0.0021, GyroY: -0.0134, GyroZ: 0.5,
		MagX: 22.5, MagY: -4.25, MagZ: 41.0625, Temperature: 23.75, Humidity: 41.5,
		Pressure: 101325.25, Altitude: 312.875, Latitude: 48.858844, Longitude: 2.294351,
		Speed: 13.4, Heading: 271.5, BatteryV: 3.912, Rssi: -67.5, Snr: 18.25,
		Label: "imu-front-left",
	}
}

// value loads the kind's value from its .sdpb (plain encoding).
func value(kind, data string) (interface{ MessageTypeID() uint16 }, error) {
	b, err := os.ReadFile(sdpbPath(kind, data))
	if err != nil {
		return nil, err
	}
	switch kind {
	case "struct_a":
		m := new(leaderboard.StructA)
		return m, m.UnmarshalBinary(b)
	case "sensor":
		m := new(ipc.SensorFrame)
		return m, m.UnmarshalBinary(b)
	case "i16_48k":
		m := new(arrays.I16Array)
		return m, m.UnmarshalBinary(b)
	}
	return nil, fmt.Errorf("unknown kind %q", kind)
}

func sdpbPath(kind, data string) string { return data + "/" + kind + ".sdpb" }

// messageBytes is one message of the kind, SDP2 header included: what every
// SDP writer sends and the floor writer repeats.
func messageBytes(kind, data string) ([]byte, error) {
	v, err := value(kind, data)
	if err != nil {
		return nil, err
	}
	switch m := v.(type) {
	case *leaderboard.StructA:
		return m.MarshalMessage()
	case *ipc.SensorFrame:
		return m.MarshalMessage()
	case *arrays.I16Array:
		return m.MarshalMessage()
	}
	return nil, fmt.Errorf("unknown kind %q", kind)
}

// expectedSum is the checksum of one decoded message of the kind.
func expectedSum(kind, data string) (uint64, error) {
	v, err := value(kind, data)
	if err != nil {
		return 0, err
	}
	switch m := v.(type) {
	case *leaderboard.StructA:
		return sumStructA(m), nil
	case *ipc.SensorFrame:
		return sumSensor(m), nil
	case *arrays.I16Array:
		return sumI16(m), nil
	}
	return 0, fmt.Errorf("unknown kind %q", kind)
}

// writeSDP writes n messages with the generated MessageWriter.
func writeSDP(kind, data string, n int) error {
	v, err := value(kind, data)
	if err != nil {
		return err
	}
	out := bufio.NewWriterSize(os.Stdout, bufSize)
	fmt.Fprintf(os.Stderr, "ipc-start %d\n", monoNS())
	switch kind {
	case "struct_a":
		w := leaderboard.NewMessageWriter(out)
		m := v.(*leaderboard.StructA)
		for i := 0; i < n; i++ {
			if err := w.WriteMessage(m); err != nil {
				return err
			}
		}
	case "sensor":
		w := ipc.NewMessageWriter(out)
		m := v.(*ipc.SensorFrame)
		for i := 0; i < n; i++ {
			if err := w.WriteMessage(m); err != nil {
				return err
			}
		}
	case "i16_48k":
		w := arrays.NewMessageWriter(out)
		m := v.(*arrays.I16Array)
		for i := 0; i < n; i++ {
			if err := w.WriteMessage(m); err != nil {
				return err
			}
		}
	}
	return out.Flush()
}

// readSDP reads the stream with the generated MessageReader, decoding every
// message into owned values (with reuse, into the value of the previous
// message: Options.Reuse), and reports the count and checksum.
func readSDP(kind string, reuse bool) error {
	in := bufio.NewReaderSize(os.Stdin, bufSize)
	var count int
	var sum uint64
	var bytes int64
	var next func() (uint64, error)
	switch kind {
	case "struct_a":
		r := leaderboard.NewMessageReader(in)
		r.Options.Reuse = reuse
		next = func() (uint64, error) {
			m, err := r.ReadMessage()
			if err != nil {
				return 0, err
			}
			v, ok := m.(*leaderboard.StructA)
			if !ok {
				return 0, fmt.Errorf("message %d is a %T", count, m)
			}
			bytes += int64(leaderboard.MessageHeaderSize + v.EncodedSize())
			return sumStructA(v), nil
		}
	case "sensor":
		r := ipc.NewMessageReader(in)
		r.Options.Reuse = reuse
		next = func() (uint64, error) {
			m, err := r.ReadMessage()
			if err != nil {
				return 0, err
			}
			v, ok := m.(*ipc.SensorFrame)
			if !ok {
				return 0, fmt.Errorf("message %d is a %T", count, m)
			}
			bytes += int64(ipc.MessageHeaderSize + v.EncodedSize())
			return sumSensor(v), nil
		}
	case "i16_48k":
		r := arrays.NewMessageReader(in)
		r.Options.Reuse = reuse
		next = func() (uint64, error) {
			m, err := r.ReadMessage()
			if err != nil {
				return 0, err
			}
			v, ok := m.(*arrays.I16Array)
			if !ok {
				return 0, fmt.Errorf("message %d is a %T", count, m)
			}
			bytes += int64(arrays.MessageHeaderSize + v.EncodedSize())
			return sumI16(v), nil
		}
	default:
		return fmt.Errorf("unknown kind %q", kind)
	}
	for {
		s, err := next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		count++
		sum += s
	}
	fmt.Printf("ipc-end %d %d %d %d\n", monoNS(), count, sum, bytes)
	return nil
}

// writeFloor writes the pre-encoded message bytes n times through the same
// 64 KiB buffer: no encoding.
func writeFloor(kind, data string, n int) error {
	msg, err := messageBytes(kind, data)
	if err != nil {
		return err
	}
	out := bufio.NewWriterSize(os.Stdout, bufSize)
	fmt.Fprintf(os.Stderr, "ipc-start %d\n", monoNS())
	for i := 0; i < n; i++ {
		if _, err := out.Write(msg); err != nil {
			return err
		}
	}
	return out.Flush()
}

// readFloor reads the stream into a 64 KiB buffer and discards it: no
// framing, no decoding. The count is bytes / message size, the checksum
// the count times the expected sum (the runner checks the bytes).
func readFloor() error {
	buf := make([]byte, bufSize)
	var total int64
	for {
		n, err := os.Stdin.Read(buf)
		total += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	fmt.Printf("ipc-end %d %d %d %d\n", monoNS(), -1, 0, total)
	return nil
}

// readProto reads length-delimited protobuf messages (a varint length, then
// the message, as C++'s SerializeDelimitedToZeroCopyStream writes them and
// Java's parseDelimitedFrom reads them) into fresh messages.
func readProto(kind string) error {
	in := bufio.NewReaderSize(os.Stdin, bufSize)
	var buf []byte
	var count int
	var sum, bytes uint64
	for {
		n, err := binary.ReadUvarint(in)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if cap(buf) < int(n) {
			buf = make([]byte, n)
		}
		b := buf[:n]
		if _, err := io.ReadFull(in, b); err != nil {
			return err
		}
		bytes += n + uint64(len(binary.AppendUvarint(nil, n)))
		switch kind {
		case "struct_a":
			m := new(pb.StructA)
			if err := proto.Unmarshal(b, m); err != nil {
				return err
			}
			sum += sumStructA(&leaderboard.StructA{Name: m.Name, BirthDay: m.BirthDay, Phone: m.Phone,
				Siblings: m.Siblings, Spouse: m.Spouse, Money: m.Money})
		case "i16_48k":
			m := new(pb.I16Array)
			if err := proto.Unmarshal(b, m); err != nil {
				return err
			}
			sum += sumSamples(m.Samples) // int32 in protobuf
		case "sensor":
			m := new(ipcpb.SensorFrame)
			if err := proto.Unmarshal(b, m); err != nil {
				return err
			}
			sum += sumSensor(&ipc.SensorFrame{Seq: m.Seq, TimestampNs: m.TimestampNs, ReceivedNs: m.ReceivedNs,
				DeviceID: m.DeviceId, SensorID: uint16(m.SensorId), Status: uint8(m.Status), Flags: uint8(m.Flags),
				Quality: uint16(m.Quality), ErrorCount: uint16(m.ErrorCount),
				AccelX: m.AccelX, AccelY: m.AccelY, AccelZ: m.AccelZ, GyroX: m.GyroX, GyroY: m.GyroY, GyroZ: m.GyroZ,
				MagX: m.MagX, MagY: m.MagY, MagZ: m.MagZ, Temperature: m.Temperature, Humidity: m.Humidity,
				Pressure: m.Pressure, Altitude: m.Altitude, Latitude: m.Latitude, Longitude: m.Longitude,
				Speed: m.Speed, Heading: m.Heading, BatteryV: m.BatteryV, Rssi: m.Rssi, Snr: m.Snr, Label: m.Label})
		default:
			return fmt.Errorf("no protobuf message for kind %q", kind)
		}
		count++
	}
	fmt.Printf("ipc-end %d %d %d %d\n", monoNS(), count, sum, bytes)
	return nil
}
