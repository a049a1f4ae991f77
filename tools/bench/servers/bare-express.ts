// The reference for simple API reads: a bare express route answering a small JSON body.
import express from 'express';

const app = express();
app.get('/api/v1/auth/me', (_req, res) => {
  res.json({ username: 'operator' });
});
app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
