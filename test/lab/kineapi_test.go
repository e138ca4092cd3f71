package lab

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
)

// kineAPI talks etcd's v3 API to kine on its unix socket, as k0s's own
// client does (kine.go:91-96, the API server likewise). kine serves that
// API as gRPC alone (kine v0.16.3 pkg/endpoint/endpoint.go:139-156: no
// JSON gateway as etcd has), and the project has no gRPC module: the two
// calls the lab makes, Put and a one-key Range, are written here as gRPC
// frames over HTTP/2 without TLS, their protobuf messages by hand
// (etcd api/v3 etcdserverpb/rpc.proto, mvccpb/kv.proto).
type kineAPI struct {
	name string
	c    *http.Client
}

func newKineAPI(name, socket string) *kineAPI {
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", socket)
		},
		Protocols:         new(http.Protocols),
		DisableKeepAlives: true,
	}
	tr.Protocols.SetUnencryptedHTTP2(true)
	return &kineAPI{name: name, c: &http.Client{Transport: tr, Timeout: 5 * time.Second}}
}

// call sends one unary gRPC request and returns the response message; an
// error carries the server's grpc-message.
func (a *kineAPI) call(method string, msg []byte) ([]byte, error) {
	frame := make([]byte, 5, 5+len(msg))
	binary.BigEndian.PutUint32(frame[1:], uint32(len(msg)))
	frame = append(frame, msg...)
	req, err := http.NewRequest(http.MethodPost, "http://kine/etcdserverpb.KV/"+method, bytes.NewReader(frame))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/grpc")
	req.Header.Set("TE", "trailers")
	r, err := a.c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s: kine %s: %w", a.name, method, err)
	}
	defer r.Body.Close()
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, fmt.Errorf("%s: kine %s: %w", a.name, method, err)
	}
	// A failed call may end with the status in the headers alone.
	status, message := r.Trailer.Get("Grpc-Status"), r.Trailer.Get("Grpc-Message")
	if status == "" {
		status, message = r.Header.Get("Grpc-Status"), r.Header.Get("Grpc-Message")
	}
	if status != "0" {
		m, _ := url.PathUnescape(message)
		return nil, fmt.Errorf("%s: kine %s: gRPC status %q: %s", a.name, method, status, m)
	}
	if len(body) < 5 || int(binary.BigEndian.Uint32(body[1:5])) != len(body)-5 {
		return nil, fmt.Errorf("%s: kine %s: a response of %d bytes is not one gRPC message", a.name, method, len(body))
	}
	return body[5:], nil
}

// put is PutRequest{key: 1, value: 2}.
func (a *kineAPI) put(key, value string) error {
	_, err := a.call("Put", append(pbBytes(1, key), pbBytes(2, value)...))
	return err
}

// get is RangeRequest{key: 1}; the value is that of the first of
// RangeResponse's kvs (field 2), a KeyValue's value (field 5).
func (a *kineAPI) get(key string) (string, error) {
	resp, err := a.call("Range", pbBytes(1, key))
	if err != nil {
		return "", err
	}
	kv, ok, err := pbField(resp, 2)
	if err != nil || !ok {
		return "", fmt.Errorf("%s: %s: not found (%v)", a.name, key, err)
	}
	v, _, err := pbField(kv, 5)
	return string(v), err
}

// pbBytes is a length-delimited protobuf field.
func pbBytes(field int, s string) []byte {
	b := binary.AppendUvarint(nil, uint64(field)<<3|2)
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// pbField is the first length-delimited field of the message with the
// number given, skipping the others.
func pbField(msg []byte, field int) ([]byte, bool, error) {
	for len(msg) > 0 {
		tag, n := binary.Uvarint(msg)
		if n <= 0 {
			return nil, false, errors.New("a bad protobuf tag")
		}
		msg = msg[n:]
		var size uint64
		switch tag & 7 {
		case 0:
			if _, n = binary.Uvarint(msg); n <= 0 {
				return nil, false, errors.New("a bad protobuf varint")
			}
		case 1:
			n = 8
		case 5:
			n = 4
		case 2:
			if size, n = binary.Uvarint(msg); n <= 0 || uint64(len(msg)-n) < size {
				return nil, false, errors.New("a bad protobuf length")
			}
			if int(tag>>3) == field {
				return msg[n : n+int(size)], true, nil
			}
			n += int(size)
		default:
			return nil, false, fmt.Errorf("protobuf wire type %d", tag&7)
		}
		if n > len(msg) {
			return nil, false, errors.New("a protobuf message cut short")
		}
		msg = msg[n:]
	}
	return nil, false, nil
}
