enum CurlPlaceholder {}
