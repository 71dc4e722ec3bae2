// E-mail over SMTP (nodemailer), configured by SMTP_URL (smtp://user:pass@host:port or smtps://).
// Without SMTP_URL a receipt is written to the log instead of being lost.
import nodemailer from 'nodemailer';
import type { Mailer } from './domain/mailer.ts';
import type { Logger } from './logger.ts';

export function createMailer(opts: { smtpUrl?: string; from: string; logger: Logger }): Mailer {
  if (!opts.smtpUrl) {
    return {
      async send(mail) {
        opts.logger.info('mail not sent: SMTP_URL is not set', { to: mail.to, subject: mail.subject, text: mail.text });
      },
    };
  }
  const transport = nodemailer.createTransport(opts.smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
