package pricing

// Deviations are departures from the spec that the domain makes when it is
// told to: the zero value is the spec. They are how a wrong server that no
// rewrite of a request or an answer can express reaches validation and the
// store; each field is set by the servers of mockserver/variants and by
// nothing else, and read by the domain alone (no handler knows of them).
type Deviations struct {
	// MaxLen overrides the limit of a string field (the field tables' Max),
	// by its name in the body.
	MaxLen map[string]int
	// MinPassword overrides the shortest password accepted (section 8: 6,
	// the password's Min in UserBody).
	MinPassword int
	// NullPasswordClears: "password": null sets an empty password instead of
	// keeping the stored one (4.1).
	NullPasswordClears bool
	// TermsUnchecked: terms need not be "I agree" (4.3).
	TermsUnchecked bool
	// AppOnUpdateIgnored: PUT /clients takes (and drops) an app (4.4).
	AppOnUpdateIgnored bool
	// InvalidAppDropped: an invalid app of POST /clients is dropped and the
	// client created anyway (4.3).
	InvalidAppDropped bool
	// AppNameOptional: without a marketapp hash, name is not required (7.3).
	AppNameOptional bool
	// BodyPlatformWins: with a hash, platform.id of the body overrides the
	// marketplace app's platform (4.2).
	BodyPlatformWins bool
	// MalformedHashIgnored: a hash that is not 40 hexadecimal characters is
	// ignored rather than refused (section 8).
	MalformedHashIgnored bool
	// HashTruncated: only the first 40 characters of a hash are matched.
	HashTruncated bool

	// AnyPassword: a known email logs in with any password (5).
	AnyPassword bool
	// AnyUserMayAct: a user may read and modify every user (5).
	AnyUserMayAct bool
	// AnyoneMayActOnClients: a user may read and modify every client (5).
	AnyoneMayActOnClients bool
	// UpdateNotStored: PUT /users answers the new values without storing
	// them (4.1).
	UpdateNotStored bool
	// NobodyAPIKey, when set, is an API key that authenticates as no user
	// (id 0): a request that carries it runs as one that skipped
	// authentication (5).
	NobodyAPIKey string

	// PasswordChangeUndated: a new password leaves passwordLastChanged as it
	// was (2.1).
	PasswordChangeUndated bool
	// OldEmailKept: after an email change the old address still logs in,
	// beside the new one (4.1).
	OldEmailKept bool
	// LoginEmailStale: an email change is stored in the user but not where
	// the login looks, so the old address logs in and the new one does not
	// (4.1).
	LoginEmailStale bool
	// UserProfileNotStored: PUT /users stores the email, the password and
	// the phone but only answers the names, the subscribe flags and the
	// timezone (4.1).
	UserProfileNotStored bool
	// ClientUpdateNotStored: PUT /clients answers the new values without
	// storing them (4.4).
	ClientUpdateNotStored bool
	// LastSessionWins: every session token acts as the user who logged in
	// last (5).
	LastSessionWins bool
	// AppToOtherClient attaches an app made by POST /apps to another client
	// than its creator's: 1 the lowest id of another client, 2 the highest
	// (4.2).
	AppToOtherClient int
	// NobodyMayActOnUsers: the caller of NobodyAPIKey may modify every user
	// (5).
	NobodyMayActOnUsers bool
	// PermissionCheckedAfterWrite: an update of a user or a client by a
	// caller who may not make it is stored before the permission is
	// checked; the store then refuses it with ErrRefusedAfterWrite (5).
	PermissionCheckedAfterWrite bool
	// ClientAppToPrimary: the app of POST /clients joins the caller's
	// primary client instead of the new one (4.3).
	ClientAppToPrimary bool
	// UnknownHashIgnored: a well-formed hash that matches no marketplace app
	// is ignored, and the app made from name and platform.id (1, 4.2).
	UnknownHashIgnored bool
}

// maxLen is the limit of field: the table's limit, unless overridden.
func (d Deviations) maxLen(field string, limit int) int {
	if n, ok := d.MaxLen[field]; ok {
		return n
	}
	return limit
}

// minPassword is the shortest password: the table's least, unless
// overridden.
func (d Deviations) minPassword(least int) int {
	if d.MinPassword != 0 {
		return d.MinPassword
	}
	return least
}
