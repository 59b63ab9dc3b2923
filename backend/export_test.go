package backend

import "context"

// Call sends any request on the session's connection, for tests that
// check what the server holds (config/read); the product uses the typed
// Client methods only.
func (s *Session) Call(ctx context.Context, method string, params, result any) error {
	return s.conn.Call(ctx, method, params, result)
}
