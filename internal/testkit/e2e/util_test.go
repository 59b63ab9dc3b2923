package e2e

import (
	"context"
	"testing"
)

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), Patience)
	t.Cleanup(cancel)
	return ctx
}
