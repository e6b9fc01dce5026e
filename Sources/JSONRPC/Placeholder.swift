enum JSONRPCPlaceholder {}
