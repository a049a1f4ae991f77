// The speed limit for auth-verify: a bare node:http route answering 200 with no work.
import http from 'node:http';

const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'Content-Length': '0' }).end();
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
