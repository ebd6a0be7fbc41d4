/** The time source of the gateway: injectable so that tests can move time (retention, quotas, windows). */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
