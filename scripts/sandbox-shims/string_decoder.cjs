exports.StringDecoder = function StringDecoder() { throw new Error('string_decoder is not available in the Ferry sandbox'); };
