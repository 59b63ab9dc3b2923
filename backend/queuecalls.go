package backend

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
)

// The server's queue of a thread (threadqueue.go), Session's side: the
// thread is named, not the session's current one, since `tandem queue`
// queues on a thread it never opens.

// maxQueuePages bounds how many pages QueueOf follows.
const maxQueuePages = 10

// Enqueue runs `thread/queue/add`: in (its text, images and skills)
// queued on thread id, under a new client message id (the userMessage
// item's clientId when it runs). The errors are the server's: an
// *RPCError -32601 from a codex without the queue, -32603 for a thread
// the store does not have.
func (s *Session) Enqueue(ctx context.Context, id string, in TurnInput) (QueuedSubmission, error) {
	cid, err := clientMessageID()
	if err != nil {
		return QueuedSubmission{}, err
	}
	resp, err := ThreadQueueAdd.Call(ctx, s.conn, ThreadQueueAddParams{ThreadID: id, ClientUserMessageID: cid, Input: in.Inputs()})
	return resp.Queued, err
}

// QueueOf runs `thread/queue/list` for thread id, following the cursor
// for up to maxQueuePages pages: the queue, next to run first.
func (s *Session) QueueOf(ctx context.Context, id string) ([]QueuedSubmission, error) {
	var all []QueuedSubmission
	cursor := ""
	for range maxQueuePages {
		resp, err := ThreadQueueList.Call(ctx, s.conn, ThreadQueueListParams{ThreadID: id, Cursor: cursor})
		if err != nil {
			return all, err
		}
		all = append(all, resp.Data...)
		if resp.NextCursor == nil || *resp.NextCursor == "" {
			break
		}
		cursor = *resp.NextCursor
	}
	return all, nil
}

// ListQueue implements Client: QueueOf the current thread.
func (s *Session) ListQueue(ctx context.Context) ([]QueuedSubmission, error) {
	return s.QueueOf(ctx, s.ThreadID())
}

// Unqueue runs `thread/queue/delete`: the queued message qid leaves
// thread id's queue. It reports false when the message was not there
// any more (it ran).
func (s *Session) Unqueue(ctx context.Context, id, qid string) (bool, error) {
	resp, err := ThreadQueueDelete.Call(ctx, s.conn, ThreadQueueDeleteParams{ThreadID: id, ID: qid})
	return resp.Deleted, err
}

// clientMessageID is a new random id for a queued message (a UUID v4, as
// codex's own clients send).
func clientMessageID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("a message id: %w", err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:], nil
}
