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
	r, err := FsReadFile.Call(ctx, s.conn, FsPathParams{Path: p})
	if err != nil {
		return nil, fsError(FsReadFile.Name(), p, err)
	}
	b, err := base64.StdEncoding.DecodeString(r.DataBase64)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", FsReadFile.Name(), p, err)
	}
	return b, nil
}

// WriteFile implements Client: `fs/writeFile`, after `fs/createDirectory`
// of the parent when the first write finds it missing.
func (s *Session) WriteFile(ctx context.Context, p string, data []byte) error {
	params := FsWriteFileParams{Path: p, DataBase64: base64.StdEncoding.EncodeToString(data)}
	err := fsError(FsWriteFile.Name(), p, FsWriteFile.Do(ctx, s.conn, params))
	if errors.Is(err, fs.ErrNotExist) {
		if derr := FsCreateDirectory.Do(ctx, s.conn, FsCreateDirectoryParams{Path: path.Dir(p), Recursive: true}); derr != nil {
			return fsError(FsCreateDirectory.Name(), path.Dir(p), derr)
		}
		err = fsError(FsWriteFile.Name(), p, FsWriteFile.Do(ctx, s.conn, params))
	}
	return err
}

// RemoveFile implements Client: `fs/remove` of one file.
func (s *Session) RemoveFile(ctx context.Context, p string) error {
	return fsError(FsRemove.Name(), p, FsRemove.Do(ctx, s.conn, FsRemoveParams{Path: p}))
}
