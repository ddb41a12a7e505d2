// sax only needs a Stream constructor for its streaming API, which scripts cannot use.
exports.Stream = function Stream() {};
