package pair

// kexScan follows what a client sends before its keys are in use, far
// enough to see it take part in the key exchange (RFC 4253): the
// identification line ("SSH-2.0-…", maybe after other lines), then
// binary packets in the clear — uint32 packet_length, byte
// padding_length, the payload whose first byte is the message number,
// the padding. Once the client has sent its KEXINIT (20) and then a
// message of the key-exchange method (30–49: KEXDH_INIT, KEX_ECDH_INIT,
// KEX_DH_GEX_REQUEST…), the server answers with its host key, which the
// client shows its user: from then on a silent client is a person reading
// the fingerprint or typing a passphrase, not a slow-loris (guard.go).
//
// It is fed the bytes in the order read, from one goroutine.
type kexScan struct {
	banner  bool    // the identification line has ended
	lineSSH bool    // the line being read starts with "SSH-" (so far)
	lineLen int     // bytes of the line being read
	head    [6]byte // a packet's length, padding length, message number
	got     int     // bytes of head read
	skip    uint32  // the rest of the packet to skip
	kexInit bool    // the client's KEXINIT was seen
	done    bool    // answered, or the stream is not one to follow
	// answered is set once the client sent its key-exchange message.
	answered bool
}

// Message numbers and a sanity bound (RFC 4253 6.1: 35000 bytes at
// least must be supported; no client sends a KEXINIT near 256 KiB).
const (
	msgKexInit      = 20
	msgKexFirst     = 30
	msgKexLast      = 49
	maxClearPacket  = 256 << 10
	maxPreambleLine = 1024
)

// feed reads b and reports whether the client has answered the key
// exchange (at this call or before).
func (s *kexScan) feed(b []byte) bool {
	for len(b) > 0 && !s.done {
		if !s.banner {
			b = s.line(b)
			continue
		}
		if s.skip > 0 {
			n := min(uint32(len(b)), s.skip)
			s.skip -= n
			b = b[n:]
			continue
		}
		n := copy(s.head[s.got:], b)
		s.got += n
		b = b[n:]
		if s.got < len(s.head) {
			continue
		}
		s.got = 0
		s.packet()
	}
	return s.answered
}

// line consumes b up to the end of the current line and returns the rest.
func (s *kexScan) line(b []byte) []byte {
	for i, c := range b {
		if s.lineLen < 4 {
			s.lineSSH = (s.lineLen == 0 || s.lineSSH) && c == "SSH-"[s.lineLen]
		}
		s.lineLen++
		if c == '\n' {
			s.banner = s.lineSSH
			s.lineLen, s.lineSSH = 0, false
			return b[i+1:]
		}
		if s.lineLen > maxPreambleLine {
			s.done = true // not an SSH client
			return nil
		}
	}
	return nil
}

// packet reads a packet's head: the message number, and how much to skip.
func (s *kexScan) packet() {
	length := uint32(s.head[0])<<24 | uint32(s.head[1])<<16 | uint32(s.head[2])<<8 | uint32(s.head[3])
	msg := s.head[5]
	if length < 2 || length > maxClearPacket {
		s.done = true
		return
	}
	s.skip = length - 2
	switch {
	case msg == msgKexInit:
		s.kexInit = true
	case s.kexInit && msg >= msgKexFirst && msg <= msgKexLast:
		s.answered, s.done = true, true
	}
}
