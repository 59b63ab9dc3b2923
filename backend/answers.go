package backend

// DescribeAnswer says in a few words what a reply to a server request
// decided, for a shared session's transcript ("approved", "approved for
// the session", "declined", "answered", …): result is the response value
// a request's Respond was given (ApprovalResponse, PermissionsResponse,
// UserInputResponse, ElicitationResponse), rpcErr the error reply instead
// ("refused").
func DescribeAnswer(result any, rpcErr *RPCError) string {
	if rpcErr != nil {
		return "refused"
	}
	switch r := result.(type) {
	case ApprovalResponse:
		switch r.Decision.Name {
		case "accept", "approved":
			return "approved"
		case "acceptForSession", "approved_for_session":
			return "approved for the session"
		case "acceptWithExecpolicyAmendment", "approved_execpolicy_amendment":
			return "approved, and not to be asked again"
		case "applyNetworkPolicyAmendment", "network_policy_amendment":
			return "approved the network access"
		case "decline", "denied":
			return "declined"
		case "cancel", "abort":
			return "cancelled"
		}
		return r.Decision.Name
	case PermissionsResponse:
		if r.Scope == ScopeSession {
			return "granted for the session"
		}
		return "granted"
	case UserInputResponse:
		return "answered"
	case ElicitationResponse:
		switch r.Action {
		case ElicitAccept:
			return "accepted"
		case ElicitDecline:
			return "declined"
		}
		return "cancelled"
	}
	return "answered"
}

// DescribeRequest names what a server request of method asks about, for
// a line such as "bob approved the command": "the command", "the file
// change", "the permissions", "the question", "the MCP server's
// request", else "the request".
func DescribeRequest(method string) string {
	switch method {
	case MethodCommandApproval, MethodExecCommandApproval:
		return "the command"
	case MethodFileChangeApproval, MethodApplyPatchApproval:
		return "the file change"
	case MethodPermissionsApproval:
		return "the permissions"
	case MethodUserInput:
		return "the question"
	case MethodElicitation:
		return "the MCP server's request"
	}
	return "the request"
}
