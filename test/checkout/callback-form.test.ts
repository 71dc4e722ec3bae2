// A bank's callback form read in the charset it was posted in: Turkish banks' 3D pages post
// ISO-8859-9 (named in the Content-Type or in EST's own `encoding` field); UTF-8 otherwise.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCallbackForm } from '../../src/checkout/forms.ts';

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    void readCallbackForm(req).then((fields) => res.end(JSON.stringify(fields)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = async (body: string, contentType = 'application/x-www-form-urlencoded') =>
  (await fetch(url, { method: 'POST', headers: { 'Content-Type': contentType }, body })).json() as Promise<Record<string, string>>;

describe('a callback form', () => {
  it('reads UTF-8 by default, with + as a space', async () => {
    expect(await post('ErrMsg=%C4%B0%C5%9Flem+onaylanmad%C4%B1&oid=A1')).toEqual({ ErrMsg: 'İşlem onaylanmadı', oid: 'A1' });
  });

  it('reads ISO-8859-9 when the form says so in its encoding field', async () => {
    // İşlem in ISO-8859-9: DD FE 6C 65 6D.
    expect(await post('encoding=ISO-8859-9&ErrMsg=%DD%FElem')).toEqual({ encoding: 'ISO-8859-9', ErrMsg: 'İşlem' });
  });

  it('reads the charset of the Content-Type first', async () => {
    expect(await post('ErrMsg=%DD%FElem', 'application/x-www-form-urlencoded; charset=windows-1254')).toEqual({ ErrMsg: 'İşlem' });
  });

  it('falls back to UTF-8 for a charset Node does not know, and keeps a malformed escape as written', async () => {
    expect(await post('encoding=klingon&x=%ZZ%41')).toEqual({ encoding: 'klingon', x: '%ZZA' });
  });
});
