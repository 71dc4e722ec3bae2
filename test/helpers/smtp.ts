// A real SMTP server on 127.0.0.1 that keeps every message it receives, for tests of e-mail.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { eventually } from './webhooks.ts';

export interface ReceivedMail {
  to: string[];
  /** The raw message, soft line breaks of quoted-printable joined. */
  text: string;
}

export interface MailBox {
  url: string;
  mails: ReceivedMail[];
  /** The first message to `to` whose text matches `pattern`, waiting for it. */
  waitFor(to: string, pattern: RegExp): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startMailBox(): Promise<MailBox> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), text });
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor: (to, pattern) => eventually(async () => mails.find((m) => m.to.includes(to) && pattern.test(m.text)), `a mail to ${to}`),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
