// How domain code sends e-mail (link receipts) without knowing SMTP: src/mail.ts implements it.
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}
