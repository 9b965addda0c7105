/** Wake deficit models by name. Adding a model: one new file plus one line here. */
import type { WakeModelName } from '../farmModel.js';
import type { WakeDeficitModel } from './wakeModel.js';
import { iea37Wake } from './iea37.js';
import { bastankhah2014Wake } from './bastankhah2014.js';
import { jensenWake } from './jensen.js';

export const WAKE_MODELS: Readonly<Partial<Record<WakeModelName, WakeDeficitModel>>> = {
  iea37: iea37Wake,
  bastankhah2014: bastankhah2014Wake,
  jensen: jensenWake,
};
