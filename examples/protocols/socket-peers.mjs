// Peers for the TCP, UDP and DNS example requests, on 127.0.0.1 only, until Ctrl-C:
// a line server on TCP 4030 that shouts each line back, a UDP echo on 4031 ("pong <datagram>"),
// and a DNS server on 4053 (UDP and TCP) that knows a few ferry.test names, loopback addresses only.
import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket from 'dns-packet';

net.createServer((socket) => {
  let pending = '';
  socket.on('error', () => {});
  socket.on('data', (chunk) => {
    pending += chunk;
    for (let at = pending.indexOf('\n'); at >= 0; at = pending.indexOf('\n')) {
      socket.write(`${pending.slice(0, at).replace(/\r$/, '').toUpperCase()}\n`);
      pending = pending.slice(at + 1);
    }
  });
}).listen(4030, '127.0.0.1');

const echo = dgram.createSocket('udp4');
echo.on('message', (datagram, from) => echo.send(Buffer.concat([Buffer.from('pong '), datagram]), from.port, from.address));
echo.bind(4031, '127.0.0.1');

const records = [
  { name: 'api.ferry.test', type: 'A', ttl: 60, data: '127.0.0.7' },
  { name: 'api.ferry.test', type: 'AAAA', ttl: 60, data: '::1' },
  { name: 'ferry.test', type: 'MX', ttl: 300, data: { preference: 10, exchange: 'mail.ferry.test' } },
  { name: 'ferry.test', type: 'TXT', ttl: 300, data: ['v=spf1 -all'] },
];
function answer(query) {
  const packet = dnsPacket.decode(query);
  const question = packet.questions[0];
  const known = records.filter((r) => r.name === question.name.toLowerCase());
  const answers = known.filter((r) => question.type === 'ANY' || r.type === question.type);
  const flags = dnsPacket.AUTHORITATIVE_ANSWER | (packet.flags & dnsPacket.RECURSION_DESIRED) | (known.length ? 0 : 3);
  return dnsPacket.encode({ type: 'response', id: packet.id, flags, questions: [question], answers });
}
const dns = dgram.createSocket('udp4');
dns.on('message', (query, from) => dns.send(answer(query), from.port, from.address));
dns.bind(4053, '127.0.0.1');
net.createServer((socket) => {
  socket.on('error', () => {});
  socket.on('data', (chunk) => {
    // One query per read is enough for these examples; each answer goes with its two-byte length.
    const reply = answer(chunk.subarray(2));
    socket.write(Buffer.concat([Buffer.from([reply.length >> 8, reply.length & 0xff]), reply]));
  });
}).listen(4053, '127.0.0.1');

console.log('TCP line server tcp://127.0.0.1:4030, UDP echo udp://127.0.0.1:4031, DNS 127.0.0.1:4053 (Ctrl-C to stop)');
