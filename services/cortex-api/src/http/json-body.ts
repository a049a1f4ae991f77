import express, { type Request, type Response } from 'express';
import { ApiError } from '@rhizome/contracts/errors';
import { refuseUnsafeJson } from './json-guard.ts';

const jsonTypes = ['application/json', 'application/*+json'];

/** Login and setup take a name and a password: anything near this size is not an attempt to log in. */
export const publicBodyLimitBytes = 16 * 1024;

/** A chunked body, or a Content-Length above zero: an empty body says nothing about its content type. */
function carriesBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) !== 0);
}

/** Refuses, before anything reads the body, a body that a JSON endpoint would otherwise silently ignore. */
export function refuseNonJsonBody(req: Request): void {
  if (!carriesBody(req) || req.is(jsonTypes)) return;
  const given = req.headers['content-type'] ?? 'no content type';
  throw ApiError.http(415, `This endpoint takes a JSON body (Content-Type: application/json), not ${given}`, {
    content_type: req.headers['content-type'] ?? null,
  });
}

/**
 * Parses a JSON body of at most `limitBytes`: a larger Content-Length is refused with 413 before a byte is
 * read, and a chunked body as soon as it passes the limit. The parser alone would read an oversized body to
 * its end before answering, so the refusal closes the connection instead.
 */
export function jsonBodyReader(limitBytes: number): (req: Request, res: Response) => Promise<void> {
  const parse = express.json({ limit: limitBytes, type: jsonTypes, verify: refuseUnsafeJson });
  return (req, res) =>
    new Promise((resolve, reject) => {
      const refuse = () => {
        res.setHeader('Connection', 'close');
        reject(ApiError.payloadTooLarge(limitBytes));
      };
      if (Number(req.headers['content-length']) > limitBytes) {
        refuse();
        return;
      }
      let received = 0;
      const count = (chunk: Buffer) => {
        received += chunk.length;
        if (received > limitBytes) refuse();
      };
      req.on('data', count);
      parse(req, res, (error?: unknown) => {
        req.off('data', count);
        if (error) reject(error as Error);
        else resolve();
      });
    });
}
