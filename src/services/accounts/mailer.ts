// Outgoing mail: SMTP when configured, otherwise the Redis outbox plus a log line.
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { OutboxStore } from '../../store/outbox-store.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    close: () => transport.close(),
  };
}

export function outboxMailer(outbox: OutboxStore, logger: Logger): Mailer {
  return {
    async send(mail) {
      await outbox.push({ ...mail, timestamp: Date.now() / 1000 });
      logger.info({ to: mail.to, subject: mail.subject }, 'mail kept in the Redis outbox (no RECD_SMTP_URL configured)');
    },
    close: () => undefined,
  };
}
