/** Session and own-account calls (docs/domain.md §21). Types come from the shared contract. */
import type {
  CaptchaBody,
  ChangePwdBody,
  EditProfileBody,
  LoginBody,
  LoginReply,
  OverstepBody,
  RegisterBody,
  ResetPwdBody,
  UserInfo,
} from './contract/auth';
import type { MenuItem } from './contract/dashboard';
import { post, USER_INFO_PATH, type RequestOptions } from './http';

export function login(body: LoginBody, options?: RequestOptions): Promise<LoginReply> {
  return post<LoginReply>('/platform/login', body, options);
}

export function logout(options?: RequestOptions): Promise<unknown> {
  return post<unknown>('/platform/logout', undefined, options);
}

/** Reply codes 50008/50012/50014 on this call do not raise the 'Confirm logout' modal (docs/domain.md §15). */
export function getUserInfo(options?: RequestOptions): Promise<UserInfo> {
  return post<UserInfo>(USER_INFO_PATH, undefined, options);
}

/** Log in as a merchant; the console keeps the returned token in session storage only. */
export function overstepLogin(body: OverstepBody, options?: RequestOptions): Promise<LoginReply> {
  return post<LoginReply>('/platform/overstep_login', body, options);
}

/** Ends every session of the user (the console then asks to log in again). */
export function changePwd(body: ChangePwdBody, options?: RequestOptions): Promise<unknown> {
  return post<unknown>('/platform/change_pwd', body, options);
}

/** Sends a 6-digit SMS code. */
export function getCaptcha(body: CaptchaBody, options?: RequestOptions): Promise<unknown> {
  return post<unknown>('/platform/get_captcha', body, options);
}

/** Forgot password, by SMS code. */
export function resetPwd(body: ResetPwdBody, options?: RequestOptions): Promise<unknown> {
  return post<unknown>('/platform/reset_pwd', body, options);
}

/** Merchant sign-up under the partner owning the domain. */
export function register(body: RegisterBody, options?: RequestOptions): Promise<unknown> {
  return post<unknown>('/platform/register', body, options);
}

export function editProfile(body: EditProfileBody, options?: RequestOptions): Promise<unknown> {
  return post<unknown>('/platform/edit_profile', body, options);
}

/** The user's menu from the route table (used when "menu from server" is on). */
export function getUserMenu(options?: RequestOptions): Promise<MenuItem[]> {
  return post<MenuItem[]>('/api/user/menu', undefined, options);
}
