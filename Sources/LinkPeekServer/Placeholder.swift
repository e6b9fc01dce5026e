enum LinkPeekServerPlaceholder {}
