package act

import (
	"errors"
	"fmt"
	"strings"

	"tandem/backend"
)

// OneLine is an error as one line for a banner or a notice: an
// app-server error as its message and code ("no rollout found (-32600)"),
// any other as its first line.
func OneLine(err error) string {
	var rpc *backend.RPCError
	if errors.As(err, &rpc) {
		return fmt.Sprintf("%s (%d)", rpc.Message, rpc.Code)
	}
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}
