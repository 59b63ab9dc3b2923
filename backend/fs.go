package backend

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// FsPathParams are the params of `fs/readFile` and `fs/getMetadata`: an
// absolute path on the server's machine.
type FsPathParams struct {
	Path string `json:"path"`
}

// FsReadFileResponse is the result of `fs/readFile`.
type FsReadFileResponse struct {
	DataBase64 string `json:"dataBase64"`
}

// FsWriteFileParams are the params of `fs/writeFile`.
type FsWriteFileParams struct {
	Path       string `json:"path"`
	DataBase64 string `json:"dataBase64"`
}

// FsRemoveParams are the params of `fs/remove`.
type FsRemoveParams struct {
	Path      string `json:"path"`
	Recursive bool   `json:"recursive"`
	Force     bool   `json:"force"`
}

// FsCreateDirectoryParams are the params of `fs/createDirectory`.
type FsCreateDirectoryParams struct {
	Path      string `json:"path"`
	Recursive bool   `json:"recursive"`
}

// fsError makes the server's "No such file or directory (os error 2)"
// match fs.ErrNotExist, keeping the message.
func fsError(op, p string, err error) error {
	if err == nil {
		return nil
	}
	var rpc *RPCError
	if errors.As(err, &rpc) && strings.Contains(rpc.Message, "os error 2") {
		return &fs.PathError{Op: op, Path: p, Err: fs.ErrNotExist}
	}
	return fmt.Errorf("%s %s: %w", op, p, err)
}

// ReadFile implements Client: `fs/readFile`.
func (s *Session) ReadFile(ctx context.Context, p string) ([]byte, error) {
	var r FsReadFileResponse
	if err := s.conn.Call(ctx, "fs/readFile", FsPathParams{Path: p}, &r); err != nil {
		return nil, fsError("fs/readFile", p, err)
	}
	b, err := base64.StdEncoding.DecodeString(r.DataBase64)
	if err != nil {
		return nil, fmt.Errorf("fs/readFile %s: %w", p, err)
	}
	return b, nil
}

// WriteFile implements Client: `fs/writeFile`, after `fs/createDirectory`
// of the parent when the first write finds it missing.
func (s *Session) WriteFile(ctx context.Context, p string, data []byte) error {
	params := FsWriteFileParams{Path: p, DataBase64: base64.StdEncoding.EncodeToString(data)}
	err := fsError("fs/writeFile", p, s.conn.Call(ctx, "fs/writeFile", params, nil))
	if errors.Is(err, fs.ErrNotExist) {
		if derr := s.conn.Call(ctx, "fs/createDirectory", FsCreateDirectoryParams{Path: path.Dir(p), Recursive: true}, nil); derr != nil {
			return fsError("fs/createDirectory", path.Dir(p), derr)
		}
		err = fsError("fs/writeFile", p, s.conn.Call(ctx, "fs/writeFile", params, nil))
	}
	return err
}

// RemoveFile implements Client: `fs/remove` of one file.
func (s *Session) RemoveFile(ctx context.Context, p string) error {
	return fsError("fs/remove", p, s.conn.Call(ctx, "fs/remove", FsRemoveParams{Path: p}, nil))
}
