package backend

import "testing"

func TestDescribeAnswer(t *testing.T) {
	tests := []struct {
		result any
		err    *RPCError
		want   string
	}{
		{ApprovalResponse{Decision: Accept}, nil, "approved"},
		{ApprovalResponse{Decision: AcceptForSession}, nil, "approved for the session"},
		{ApprovalResponse{Decision: AcceptWithExecpolicyAmendment([]string{"ls"})}, nil, "approved, and not to be asked again"},
		{ApprovalResponse{Decision: Decline}, nil, "declined"},
		{ApprovalResponse{Decision: Denied(DeclinedRejection)}, nil, "declined"},
		{ApprovalResponse{Decision: Cancel}, nil, "cancelled"},
		{ApprovalResponse{Decision: Approved}, nil, "approved"},
		{PermissionsResponse{Scope: ScopeSession}, nil, "granted for the session"},
		{UserInputResponse{}, nil, "answered"},
		{ElicitationResponse{Action: ElicitAccept}, nil, "accepted"},
		{ElicitationResponse{Action: ElicitDecline}, nil, "declined"},
		{nil, &RPCError{Code: -32000, Message: "no"}, "refused"},
	}
	for _, tt := range tests {
		if got := DescribeAnswer(tt.result, tt.err); got != tt.want {
			t.Errorf("DescribeAnswer(%#v, %v) = %q, want %q", tt.result, tt.err, got, tt.want)
		}
	}
}
