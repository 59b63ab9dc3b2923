// Package pair holds the security edge of `tandem serve`, the pairing
// server: who may join (Keyring: authorized_keys files with the OpenSSH
// options tandem honours, and certificate authorities), what an
// unauthenticated connection may cost (Guard: handshake deadline, idle
// timeout, caps on pending connections and a per-address rate), how large
// a guest's terminal may be (Clamp), and the host key (LoadHostKey).
//
// It knows nothing of Bubble Tea or the model; it imports internal/hub
// for roles.
package pair
