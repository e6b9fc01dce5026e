enum LinkPeekProtocolPlaceholder {}
