// xml2js only uses setImmediate in its `async: true` mode; a microtask is the sandbox's nearest equivalent.
exports.setImmediate = function (fn) {
  const args = Array.prototype.slice.call(arguments, 1);
  Promise.resolve().then(function () { fn.apply(null, args); });
};
