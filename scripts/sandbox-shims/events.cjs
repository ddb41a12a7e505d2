// Minimal EventEmitter for xml2js inside the QuickJS sandbox (no Node built-ins there).
function EventEmitter() { this._events = Object.create(null); }
EventEmitter.prototype.on = function (name, fn) { (this._events[name] || (this._events[name] = [])).push(fn); return this; };
EventEmitter.prototype.addListener = EventEmitter.prototype.on;
EventEmitter.prototype.once = function (name, fn) {
  const self = this;
  function once() { self.removeListener(name, once); return fn.apply(this, arguments); }
  return this.on(name, once);
};
EventEmitter.prototype.removeListener = function (name, fn) {
  const list = this._events[name];
  if (list) { const i = list.indexOf(fn); if (i >= 0) list.splice(i, 1); }
  return this;
};
EventEmitter.prototype.off = EventEmitter.prototype.removeListener;
EventEmitter.prototype.removeAllListeners = function (name) {
  if (name === undefined) this._events = Object.create(null); else delete this._events[name];
  return this;
};
EventEmitter.prototype.emit = function (name) {
  const list = this._events[name];
  if (!list || list.length === 0) {
    if (name === 'error') throw arguments[1];
    return false;
  }
  const args = Array.prototype.slice.call(arguments, 1);
  for (const fn of list.slice()) fn.apply(this, args);
  return true;
};
EventEmitter.prototype.listeners = function (name) { return (this._events[name] || []).slice(); };
EventEmitter.EventEmitter = EventEmitter;
module.exports = EventEmitter;
