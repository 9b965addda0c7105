/** Wake deficit models of the waked-inflow engine by name. Adding one: a file plus one line here. */
import type { LocalWakeFactory } from './localWake.js';
import { iea37Local } from './iea37.js';
import { bastankhah2014Local } from './bastankhah2014.js';
import { jensenLocal } from './jensen.js';
import { niayifar2016Local } from './niayifar2016.js';
import { turbopark2022Local } from './turbopark2022.js';
import { zong2020Local } from './zong2020.js';
import { blondel2020Local } from './blondel2020.js';
import { carbajofuertes2018Local } from './carbajofuertes2018.js';

export const LOCAL_WAKE_MODELS: Readonly<Record<string, LocalWakeFactory>> = {
  iea37: iea37Local,
  bastankhah2014: bastankhah2014Local,
  jensen: jensenLocal,
  niayifar2016: niayifar2016Local,
  turbopark2022: turbopark2022Local,
  zong2020: zong2020Local,
  blondel2020: blondel2020Local,
  carbajofuertes2018: carbajofuertes2018Local,
};
