// Labels of sign-in, invitations, members and sessions (merged into i18n.ts).
export const peopleLabelsTr = {
  password: 'Parola', newPassword: 'Yeni parola', passwordHelp: 'En az 10 karakter; bir cümle de olur.',
  forgotPassword: 'Parolamı unuttum', sendResetLink: 'Sıfırlama bağlantısı gönder',
  resetSent: 'Bu e-posta bir hesaba aitse sıfırlama bağlantısı gönderildi (30 dakika geçerli).', resetTitle: 'Yeni parola belirleyin',
  resetDone: 'Parola değişti; yeni parolanızla giriş yapın.', tokenSignIn: 'Erişim anahtarıyla giriş (destek ekibi, otomasyon)',
  invitationTitle: 'Daveti kabul edin', invitationFor: '{workspace} çalışma alanına {email} olarak {role} rolüyle davet edildiniz.',
  invitationInvalid: 'Davet bağlantısı geçersiz, kullanılmış veya süresi dolmuş. Bir sahipten yeni davet isteyin.',
  acceptInvitation: 'Parolayı belirle ve katıl', invitationAccepted: 'Katıldınız; şimdi giriş yapın.',
  members: 'Ekip', membersHelp: 'Panele e-posta ve parolayla giren kişiler. Son sahip kaldırılamaz.', invite: 'Davet et',
  inviteTitle: 'Birini davet edin', invitationSent: '{email} adresine davet gönderildi (7 gün geçerli).', pendingInvitations: 'Bekleyen davetler',
  expires: 'Son geçerlilik', removeMember: 'Ekipten çıkar', confirmRemoveMember: '{email} ekipten çıkarılsın mı? Oturumları hemen kapanır.',
  sessions: 'Oturumlarım', sessionsHelp: 'Hesabınızla açık oturumlar. Birini kapatırsanız o tarayıcı hemen çıkış yapar.',
  device: 'Cihaz', lastSeen: 'Son etkinlik', thisSession: 'bu oturum', endSession: 'Oturumu kapat',
  auditPerson: 'Kişi', auditAllPeople: 'Herkes',
};
export type PeopleLabels = typeof peopleLabelsTr;
export const peopleLabelsEn: PeopleLabels = {
  password: 'Password', newPassword: 'New password', passwordHelp: 'At least 10 characters; a sentence works too.',
  forgotPassword: 'Forgot password', sendResetLink: 'Send a reset link',
  resetSent: 'If this e-mail belongs to an account, a reset link was sent (valid for 30 minutes).', resetTitle: 'Set a new password',
  resetDone: 'Password changed; sign in with the new one.', tokenSignIn: 'Sign in with an access token (support staff, automation)',
  invitationTitle: 'Accept the invitation', invitationFor: 'You are invited to {workspace} as {email} with the role {role}.',
  invitationInvalid: 'The invitation link is invalid, used or expired. Ask an owner for a new one.',
  acceptInvitation: 'Set the password and join', invitationAccepted: 'You joined; now sign in.',
  members: 'Team', membersHelp: 'People who sign in to the dashboard with e-mail and password. The last owner cannot be removed.', invite: 'Invite',
  inviteTitle: 'Invite someone', invitationSent: 'Invitation sent to {email} (valid for 7 days).', pendingInvitations: 'Pending invitations',
  expires: 'Expires', removeMember: 'Remove from team', confirmRemoveMember: 'Remove {email} from the team? Their sessions end at once.',
  sessions: 'My sessions', sessionsHelp: 'Sessions open with your account. Ending one signs that browser out at once.',
  device: 'Device', lastSeen: 'Last active', thisSession: 'this session', endSession: 'End session',
  auditPerson: 'Person', auditAllPeople: 'Everyone',
};
