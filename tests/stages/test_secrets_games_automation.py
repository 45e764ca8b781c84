"""What sets 60 and 62 to 83 showed (docs/redaction.md, thirteenth pass): game servers and streaming
(games.py), office automation (automation.py), maps under a secret's plural name (sections.py),
dotfiles (dotfiles.py), trading and banking (finance.py), administrators' scripts
(admin_scripts.py), shops and CRMs (commerce.py); VB declarations, names inside a call and
uppercase plurals in the keyed scan; a bare `Bearer` token; name/value pairs. Values here are
typed or generated for the test."""

from __future__ import annotations

import pytest

from pica.stages.secrets import find_secrets, redact


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # stream keys: in an ingest URL, and by their providers' formats
        (
            "ffmpeg -re -i in.mp4 -f flv rtmp://live.twitch.tv/app/live_83920174_Qm8vR2xKp0LdT5wYc9\n",
            "live_83920174_Qm8vR2xKp0LdT5wYc9",
        ),
        (
            'rtmpsink location="rtmps://live-api-s.facebook.com:443/rtmp/FB-1029384756-0-AbQw7Rt5Yu9IoP3"',
            "FB-1029384756-0-AbQw7Rt5Yu9IoP3",
        ),
        (
            "chat: my kick key is sk_eu-central-1_Hq7TzX2mLw9P, does it look right?\n",
            "sk_eu-central-1_Hq7TzX2mLw9P",
        ),
        (
            "    push rtmp://live.restream.io/live/re_1234567_0a9b8c7d6e5f4a3b2c1d;\n",
            "re_1234567_0a9b8c7d6e5f4a3b2c1d",
        ),
        (
            'YT_URL=rtmp://a.rtmp.youtube.com/live2\nffmpeg -i a.mp4 -f flv "$YT_URL/k3v9-a8qz-0p2m-x7wd-4jtn"\n',
            "k3v9-a8qz-0p2m-x7wd-4jtn",
        ),
        # Steam's game server login token, Cfx.re's and Tebex's keys
        (
            "./srcds_run -game csgo +sv_setsteamaccount 0A1B2C3D4E5F60718293A4B5C6D7E8F9 -port 27015\n",
            "0A1B2C3D4E5F60718293A4B5C6D7E8F9",
        ),
        ("GSLT for box 2: 9F8E7D6C5B4A39281706F5E4D3C2B1A0\n", "9F8E7D6C5B4A39281706F5E4D3C2B1A0"),
        ('sv_licenseKey "cfxk_Ab3dEf6hIj9kLm2nOp5q_Rs8tUv"\n', "cfxk_Ab3dEf6hIj9kLm2nOp5q_Rs8tUv"),
        (
            "sv_tebexSecret 0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c\n",
            "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c",
        ),
        # RCON and panels' passwords
        ("srcds_run -game tf +map ctf_2fort +rcon_password Sentry-Nest-42 -port 27016\n", "Sentry-Nest-42"),
        ("$ mcrcon -H 10.1.2.3 -P 25575 -p 'Creeper!Cove#19' list\n", "Creeper!Cove#19"),
        ('with MCRcon("mc.example.net", "Netherrack!77") as mcr:\n', "Netherrack!77"),
        ("> enablecheats Raptor_Claw5\n", "Raptor_Claw5"),
        ("const ws = new WebSocket('ws://198.51.100.4:28016/Pickaxe!Rock09');\n", "Pickaxe!Rock09"),
        ('ampinstmgr quick admin "Amp#Cube2024" 8080\n', "Amp#Cube2024"),
        (
            "await obs.connect('ws://127.0.0.1:4455', 'StarLight_4455', { rpcVersion: 1 });\n",
            "StarLight_4455",
        ),
        # a map under a secret's plural name
        ("host: 0.0.0.0\ntokens:\n  default: q8w7e6r5t4y3u2i1o0pazsxd\n", "q8w7e6r5t4y3u2i1o0pazsxd"),
        ('{\n  "tokens": {\n    "default": "m2n3b4v5c6x7z8l9k0jhgfds"\n  }\n}', "m2n3b4v5c6x7z8l9k0jhgfds"),
        ('[secrets]\ngithub = "Zx9Kq2Lm8Np4Rt6Vw1Yb3Cd5"\n', "Zx9Kq2Lm8Np4Rt6Vw1Yb3Cd5"),
        ("passwords:\n  staging: Lantern#Ridge7\n", "Lantern#Ridge7"),
        # office automation: typed logins, filled fields
        ("^!l::\n    Send, jdoe{Tab}\n    Send, kiwi#harbor2019{Enter}\nreturn\n", "kiwi#harbor2019"),
        (
            'F9:: {\n    SendText "a.user"\n    Send "{Tab}"\n    SendText "Maple-Creek-81"\n    Send "{Enter}"\n}\n',
            "Maple-Creek-81",
        ),
        ("::;pw::CobaltRiver77?\n", "CobaltRiver77?"),
        ("RunAs, itadmin, Gr4nite@Peak, CORP\n", "Gr4nite@Peak"),
        (
            'ControlSetText("Windows Security", "", "[CLASS:Edit; INSTANCE:1]", "Heron#Lake52")\n',
            "Heron#Lake52",
        ),
        ("    ControlSetText, Edit2, Pine$2044wood, Sage 50 Accounts - Logon\n", "Pine$2044wood"),
        (
            "WebAutomation.PopulateTextField.PopulateTextField BrowserInstance: Browser Control: "
            "appmask['Web Page \\'Login\\'']['Input password \\'password\\''] Text: $'''Birch1987#Vale''' "
            "EmulateTyping: True\n",
            "Birch1987#Vale",
        ),
        (
            '{"t": "set", "p": "headers.X-API-Key", "pt": "msg", "to": "r7t9y2u4i6o8p0a1s3d5f7g9", "tot": "str"}',
            "r7t9y2u4i6o8p0a1s3d5f7g9",
        ),
        (
            "store = StoreClient('3b9f1c2e-7d4a-4e8b-9c6f-0a1d2e3f4b5c')\n",
            "3b9f1c2e-7d4a-4e8b-9c6f-0a1d2e3f4b5c",
        ),
        # VB declarations, names inside a call, pairs of name and value, a bare Bearer
        ('Public Const API_SECRET As String = "Vq8Lz2Xk7Rm4Tn9Pw3Yc6Hb1"\n', "Vq8Lz2Xk7Rm4Tn9Pw3Yc6Hb1"),
        (
            'Public Const AWS_SECRET_KEY As String = "k7Jq2mVx9pLr4Tz8Wc1Nb6Hd3Fs5Gy0Ae2Ui7OoP"\n',
            "k7Jq2mVx9pLr4Tz8Wc1Nb6Hd3Fs5Gy0Ae2Ui7OoP",
        ),
        ('    .Item(schema & "sendpassword") = "Walnut!552tree"\n', "Walnut!552tree"),
        (
            '.Fields.Item("http://schemas.microsoft.com/cdo/configuration/sendpassword") = "abcd efgh ijkl mnop"',
            "abcd efgh ijkl mnop",
        ),
        ('{ "key": "password", "value": "clover!monday482", "type": "string" }', "clover!monday482"),
        (
            '{ "name": "routing_key", "value": "8a1f03c7e29b4d56f0e7a3c19b2d846e" }',
            "8a1f03c7e29b4d56f0e7a3c19b2d846e",
        ),
        (
            "  Headers:\n    Authorization | Bearer 7c1e4f2a9b8d3e6f0a5c7b2d9e4f1a3c8b6d0e2f\n",
            "7c1e4f2a9b8d3e6f0a5c7b2d9e4f1a3c8b6d0e2f",
        ),
        ('<prop oor:name="Password" oor:op="fuse"><value>SLATE42.mill</value></prop>', "SLATE42.mill"),
    ],
)
def test_a_game_servers_or_an_automations_credential_is_redacted(text, secret):
    assert secret not in redact(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # dotfiles (set 63)
        ("--passwordeval=\"echo 'Kestrel-Moor-3318'\"\n", "Kestrel-Moor-3318"),
        ("IMAPAccount home\nHost imap.example.org\nPass qvzkgwhfmtrplxbn4\n", "qvzkgwhfmtrplxbn4"),
        ("$ git config --global sendemail.smtppass 'Heather!Loch2020'\n", "Heather!Loch2020"),
        ("  /secure set oftc Tundra-Owl-5151\n", "Tundra-Owl-5151"),
        ('autosendcmd = "/msg NickServ IDENTIFY Birch_Canoe_88;wait 2000";', "Birch_Canoe_88"),
        ("alias site open -u deploy,Cedar-Dune-7070 sftp://web01.example.net\n", "Cedar-Dune-7070"),
        (
            "oauth2-bearer = 7e4b1c9a2f6d8e0b3a5c7d9f1e2b4a6c8d0f2e4a\n",
            "7e4b1c9a2f6d8e0b3a5c7d9f1e2b4a6c8d0f2e4a",
        ),
        ('export MPD_HOST="Vinyl+Crate_31@pi.lan"\n', "Vinyl+Crate_31"),
        (
            "setenv GITEA_TOKEN 9c1e7a3b5d2f4e6a8b0c1d3e5f7a9b2c4d6e8f01\n",
            "9c1e7a3b5d2f4e6a8b0c1d3e5f7a9b2c4d6e8f01",
        ),
        ("set -gx RESTIC_PASSWORD 'Oyster#Quay44'\n", "Oyster#Quay44"),
        ("gpg_passphrase = seven otters ate 42 clams\n", "seven otters ate 42 clams"),
        ("db.internal:5432:sales:report:Ro\\:bin-Nest8\n", "Ro\\:bin-Nest8"),
        ('imap-passwd.raw = "Fjord7Lantern_x"\n', "Fjord7Lantern_x"),
        (
            "def get_pass(account):\n    if account == 'uni':\n        return 'Marble_Quill_26'\n",
            "Marble_Quill_26",
        ),
        ('password = "kaz/libera:Pumpkin_Lamp77";', "kaz/libera:Pumpkin_Lamp77"),
        ("WEAVIATE_ALLOWED_KEYS: 'wv-8Hk2pQ9zLm4Xr7Tn3Vb6'\n", "wv-8Hk2pQ9zLm4Xr7Tn3Vb6"),
        # trading and banking (set 64)
        ("Enter your OKX passphrase >>> saffron&Okx1999\n", "saffron&Okx1999"),
        (
            "openssl dgst -sha256 -hmac 'e2c7a9f1-4b3d-4e8a-9c1f-7d2b6a0e3f45' -binary\n",
            "e2c7a9f1-4b3d-4e8a-9c1f-7d2b6a0e3f45",
        ),
        (
            "printf '%s:%s' 4F2A9C0E7B1D3A5C S9kWq2Lx7Rm4Tn8Vb3Yc6Hd1Fg5 | base64\n",
            "S9kWq2Lx7Rm4Tn8Vb3Yc6Hd1Fg5",
        ),
        ("Authorization: Bearer up:yeah:" + "Qw3rTy7UiOp9AsDf2GhJk4Lz6Xc8Vb1Nm5" * 3 + "\n", "up:yeah:"),
        ('pin = "Mosel2018!Trier"\n', "Mosel2018!Trier"),
        ("smtp:\n  user: a@b.ie\n  pass: 7kq2mzx9wlp4vt3n\n", "7kq2mzx9wlp4vt3n"),
        # administrators' scripts (set 66)
        ('expect "password:" { send "Heron.Marsh.771\\r" }\n', "Heron.Marsh.771"),
        ("child.expect('password:')\nchild.sendline('Quarry_Lamp_19')\n", "Quarry_Lamp_19"),
        ('cmd = ["sshpass", "-p", "tR4#nQ8@wZ2e", "ssh", host]\n', "tR4#nQ8@wZ2e"),
        ("# /etc/rsyncd.secrets\nbackup:Slate.River.48\n", "Slate.River.48"),
        ('Environment="BORG_PASSPHRASE=Amber Falcon Over Leeds 2020"\n', "Amber Falcon Over Leeds 2020"),
        ("schtasks /Create /S srv01 /U CORP\\deploy /P Gl4ss.Door.55 /TN Inv /TR inv.exe\n", "Gl4ss.Door.55"),
        ("winrs -r:http://app07:5985 -u:APP07\\Administrator -p:Fal<on-Wing9 ipconfig\n", "Fal<on-Wing9"),
        ('objNetwork.MapNetworkDrive "X:", "\\\\fs\\eng", False, "CORP\\svc", "Lath3!Shop"\n', "Lath3!Shop"),
        ("$USER1$/check_http -H intranet -a 'nagios:N0rth-Gate!7' -u /\n", "N0rth-Gate!7"),
        ("ansible_password=Gr@ve$l-Path-2024\n", "Gr@ve$l-Path-2024"),
        ("NOTE: mysql repl user pw rotated -> Ospr3y!Dec-2024\n", "Ospr3y!Dec-2024"),
        # nested encodings (set 68)
        (
            "INSERT INTO app_config (config_key, config_value) VALUES ('twilio.auth_token', 'c0f3a9e1b7d5c2a48e6f0b1d3c5a7e9f');",
            "c0f3a9e1b7d5c2a48e6f0b1d3c5a7e9f",
        ),
        ("INSERT INTO `accts` (`id`, `imap_password`) VALUES (7,'Tom\\'s-Boat#45');", "Tom\\'s-Boat#45"),
        ("host\tuser\tpass\nftp.example.fr\tupload\tlynx.Papaya.21\n", "lynx.Papaya.21"),
        ('<string name="sync_server_pass">Mango-Reef_304</string>', "Mango-Reef_304"),
        ('<wsse:Password Type="x"><![CDATA[Anchor-Bay&Co-2022]]></wsse:Password>', "Anchor-Bay&Co-2022"),
        ("auth=AC68c2ef...:a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5\n", "a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5"),
        (
            "?target=okta&ssws=SSWS%2000LIvQxppRHrETAgAmCJIRwKLo_6JSGMfF7i6qACyZ&attempt=3",
            "00LIvQxppRHrETAgAmCJIRwKLo_6JSGMfF7i6qACyZ",
        ),
        # Kubernetes (set 70)
        ("FTP_PASS:\n----\nR7Nonb57qcH0eELig4b57h\nFTP_USER:\n", "R7Nonb57qcH0eELig4b57h"),
        ("/registry/secrets/blog/mysql\nMYSQL_ROOT_PASSWORD\njfja3ZgvdDDHuWO7zhfd\n", "jfja3ZgvdDDHuWO7zhfd"),
        (
            'adminToken:\n  value: "XR4vkTsQDsAFH2+R6+Q5U1r46CWKaCL/F4rjh+gTP98="\n',
            "XR4vkTsQDsAFH2+R6+Q5U1r46CWKaCL/F4rjh+gTP98=",
        ),
        ("auth:\n  erlangCookie: QWERTYZXCVBNMASDFGHJKLPOIUYTREWQ\n", "QWERTYZXCVBNMASDFGHJKLPOIUYTREWQ"),
        (
            "$ head -c 32 /dev/urandom | base64\nCJqMvdqNbFgsWASGDIAolSf2cH0mrdtBzmXAlo1CCYQ=\n",
            "CJqMvdqNbFgsWASGDIAolSf2cH0mrdtBzmXAlo1CCYQ=",
        ),
        # shops and CRMs (set 69)
        (
            "$ws = new PrestaShopWebservice('https://shop.example.eu', 'B3QCRQQN5R2E4S89ZB4VVQAPRX1Q1H6S', false);",
            "B3QCRQQN5R2E4S89ZB4VVQAPRX1Q1H6S",
        ),
        ("Consumer Secret: 8201286331817582991\n", "8201286331817582991"),
        (
            "Application Passwords\nYour new password for Zapier is:\noVVj 2PRp cXpo kHf8 kWPe j2bk\n",
            "oVVj 2PRp cXpo kHf8 kWPe j2bk",
        ),
        ('s:8:"password";s:16:"Biscuit!Harbor48";', "Biscuit!Harbor48"),
        ("jo: use pk_dde706db1d021d2a75b0e4df16401276d9 for now\n", "pk_dde706db1d021d2a75b0e4df16401276d9"),
        (
            "SHOPIFY_CLI_THEME_TOKEN: shptka_cbc203d50b908dd031c4fca61ffe011f\n",
            "shptka_cbc203d50b908dd031c4fca61ffe011f",
        ),
        ("<n1:password>Br1ghtLoader!2024</n1:password>", "Br1ghtLoader!2024"),
    ],
)
def test_what_sets_63_to_70_showed_is_redacted(text, secret):
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        'World: "Midgard"  seed: k4Xr9bTqWm\n',  # a world's seed
        '"id": "AAMkAGI2T...",\n"changeKey": "CQAAABYAAAD3kLm9pQ2rT8sVwX1yZ4aB",\n',  # an item's version
        'cn.Open "Provider=SQLOLEDB;User ID=" & Environ("USERNAME") & ";Password=" & pwd & ";"',
        '{"content": "cn.Open \\"Provider=SQLOLEDB;Password=\\" & pwd & \\";\\""}',  # the same inside JSON
        '{"content": "  User name: excel_sales\\n  Password: \\u2022\\u2022\\u2022\\u2022\\u2022\\u2022\\n"}',
        "rtmp://live.twitch.tv/app/{stream_key}\n",  # a placeholder in the URL
        "ffmpeg -i a.mp4 -f flv rtmp://a.rtmp.youtube.com/live2/xxxx-xxxx-xxxx-xxxx-xxxx\n",
        "usage:\n  tokens:\n    input: 1834\n    output: 402\n",  # counts under `tokens:`
        "secrets:\n  db_password:\n    file: ./secrets/db_password.txt\n",  # Compose's secrets name files
        "Bearer tokens expire after an hour; refresh them with the refresh token.\n",
        "ControlSetText, Edit1, MANAGER, Sage 50 Accounts - Logon\n",  # the user's name
    ],
)
def test_what_sets_60_and_62_showed_is_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "set pgp_default_key = 0xEC0E94D067DA1B3A\n",  # a key's id
        "default-key 6A0AE835EC57CC59230D12D06C3FB11656B226EB\n",
        "alias pw='pass -c'\n",  # an alias's command
        '#password                        "password@read,add,control,admin"\n',  # MPD's sample
        '{"plaid_secret": "ENC[AES256_GCM,data:BJo97iKaRcO1CsqBopifrDt2,iv:60wtdiD0SH2UQiqMIQ7d/8Nb35D6K4=,type:str]"}',
        "Pin: actions/checkout@8cce9785e378b8b0f51e2d6774bd0cd912faf472 # v4.1.7\n",  # a pinned action
        "# deploy may restart app units without a password (OPS-1712)\n",  # a ticket
        "postgresql://USER:PASSWORD@HOST:5432/DBNAME\n",  # a template in capitals
        "[cache] HIT key=9f2c4e1a8b7d6c5e4f3a2b1c0d9e8f7a similarity=0.962\n",  # a cache's key
        "  --api-key PROVIDER=KEY\n",  # a help's metavariable
        "    <UserSecretsId>bf44d635-7efc-4960-ade1-5674ed5d9813</UserSecretsId>\n",
        '  "login.password": "Passwort",\n',  # a translation
        "        key: projects/481122093345/secrets/orders-db-password\n",  # a resource's name
        "grant_type=password&username=a%40b.app&password=%2A%2A%2A%2A%2A%2A%2A%2A&client_id=cli",
        "client_secret=%5BFILTERED%5D\n",
        '| Grafana | https://grafana.stg.example | admin | 1Password → "Staging / Grafana" |',
        '{"name":"x-api-key","value":"<omitted by HAR sanitizer>"}',
        'I0612 1 replica_set.go:676] "Finished syncing" key="shop/orders-api-5bd7c9f8d" duration="73ms"',
        "$ istioctl proxy-config secret payments-6f7c9d8b4-q8mzl -n shop\n",  # a pod's name
        "ops@bastion:~$ mysql -h 10.0.4.21 -u deploy -p orders_prod\nEnter password:\n",  # MySQL asks
        '    assert julia_code(2*pw) == "2 * ((x < 1) ? (x) : (x .^ 2))"\n',  # a call compared
        '    def getTokenName(self, t):\n        return "EOF"\n',  # a getter of a name
        "const supabase = createClient('https://x.supabase.co', 'sb_publishable_Ndqv2eIa8C0lbEjpz79862_MapiBDk_')",
        "aws ivs get-stream-key: sk_us-west-2_abcdABCDefgh_567890abcdef\n",  # the AWS CLI's example
    ],
)
def test_what_sets_63_to_70_and_real_code_showed_is_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # secret managers (set 78)
        ("$ doppler secrets get DATABASE_PASSWORD --plain\nWillow-Kite-4471\n", "Willow-Kite-4471"),
        ("$ akeyless get-secret-value --name /prod/mysql/root\nCumin-Heron-482\n", "Cumin-Heron-482"),
        ("$ gopass cat infra/ipmi/node07\nDoodle_Pike_Mars_7\n", "Doodle_Pike_Mars_7"),
        (
            '$ op read "op://DevOps/Datadog/credential" | tee >(pbcopy)\nb9298b980d84ad3905c8e116120977a1\n',
            "b9298b980d84ad3905c8e116120977a1",
        ),
        (
            "$ keepassxc-cli show -a Password ~/P.kdbx Bank\nEnter password to unlock /home/j/P.kdbx:\nLupine~Cobble~74\n",
            "Lupine~Cobble~74",
        ),
        (
            "az keyvault secret set --vault-name kv1 --name grafana --value 'Meadow-Crane-2026!' --output none",
            "Meadow-Crane-2026!",
        ),
        (
            "aws secretsmanager update-secret --secret-id x \\\n  --secret-string 'Ember&Glass&Orbit8'",
            "Ember&Glass&Orbit8",
        ),
        ("$ berglas update acme/smtp-pass 'Lilac&Beacon&906' --key projects/x\n", "Lilac&Beacon&906"),
        (
            "$ echo -n 'Kumquat-Rover-5148' | kubeseal --raw --namespace web --name db --from-file=/dev/stdin",
            "Kumquat-Rover-5148",
        ),
        ("|  SecretString |  tMPtysWkwL9D4hH78JGjfJt4bAyfAXHx   |\n", "tMPtysWkwL9D4hH78JGjfJt4bAyfAXHx"),
        (
            "Key             Value                   Version\ndb_password     Gingham-Otter-6054      3\n",
            "Gingham-Otter-6054",
        ),
        ("Password\n--------\nLedger-Mosaic-7732\n", "Ledger-Mosaic-7732"),
        (
            'GET /AIMWebService/api/Accounts -> 200 {"Content":"xT7!qL2#vR9$mN4q","UserName":"svc"}',
            "xT7!qL2#vR9$mN4q",
        ),
        (
            'ssm.put_parameter(\n    Name="/webhooks/shopify/secret",\n    Value="lkRNFIWxP3BvSTWRKLOJN20Iq9Cv",\n)',
            "lkRNFIWxP3BvSTWRKLOJN20Iq9Cv",
        ),
        ("/myapp/prod/DB_PASSWORD\tSable-Orchard-7782\n", "Sable-Orchard-7782"),
        (
            '{"/lambda/ingest/partner_api_key": "4wh1e8AOUB+yAxzHc0D7q2VhIImByiNK9OD7GuXv"}',
            "4wh1e8AOUB+yAxzHc0D7q2VhIImByiNK9OD7GuXv",
        ),
        (
            "$ bw list items --session rWJz3N7PLzUyEp7tr8+UIbhtVuVNRgDljIGOQuVrPg1d17PkVeuf7Ly==\n",
            "rWJz3N7PLzUyEp7tr8+UIbhtVuVNRgDljIGOQuVrPg1d17PkVeuf7Ly==",
        ),
        # network devices (set 73)
        ("snmp-server host 10.1.40.7 version 2c TrapSink#Cvx42  bgp config\n", "TrapSink#Cvx42"),
        ('set snmp community "ex-ro-Ff84!" authorization read-only\n', "ex-ro-Ff84!"),
        (
            "$ snmpwalk -v3 -l authNoPriv -u libre -a SHA -A 'WalkAuth!2292' 10.0.0.1 sysDescr\n",
            "WalkAuth!2292",
        ),
        ("            CommunityData('py-Snmp-ro-4411', mpModel=1),\n", "py-Snmp-ro-4411"),
        ("snmp-server user mon-v3 NMS v3 auth sha256 Eos-SnmpV3pass!2\n", "Eos-SnmpV3pass!2"),
        ('set security ike policy P pre-shared-key ascii-text "Srx-Azure-Tun!205"\n', "Srx-Azure-Tun!205"),
        (" authentication remote pre-share key Flex-Hub!78zq\n", "Flex-Hub!78zq"),
        ('  --shared-key "547R8Zs7aFOXrc8rrbKacxCHKnW4OpsX"\n', "547R8Zs7aFOXrc8rrbKacxCHKnW4OpsX"),
        ('set system radius-server 10.50.1.31 secret "JunRad!us-78"\n', "JunRad!us-78"),
        ("tacacs-server key Ctrl!Acs-2018\n", "Ctrl!Acs-2018"),
        ("3. `enable algorithm-type scrypt secret Qv7#mPz2!dLr9wKf`\n", "Qv7#mPz2!dLr9wKf"),
        ("add password      *.corp.local    {R4ncid-Login!24}\n", "R4ncid-Login!24"),
        (
            "(Cisco Controller) >config radius auth add 1 10.50.1.31 1812 ascii Wlc-Rad1us&Kez\n",
            "Wlc-Rad1us&Kez",
        ),
        ("client ap {\n    type udp\n    secret ApFloor3-Radsec!\n}", "ApFloor3-Radsec!"),
        ("    secret = Pq3Wk8_zTn5.HbX1vLc7RyD2mFa0gSeK\n", "Pq3Wk8_zTn5.HbX1vLc7RyD2mFa0gSeK"),
        (
            "<key>LUFRPT1IQXZHcVhPRjRuRzNaMUdveWFaYWdKVE5zdTQ9dXFJblBGNE9uWHA2YkFBY1Y2amFFSENQb05J</key>",
            "LUFRPT1IQXZHcVhPRjRuRzNaMUdveWFaYWdKVE5zdTQ9dXFJblBGNE9uWHA2YkFBY1Y2amFFSENQb05J",
        ),
        (
            "wg set wg1 private-key <(echo yO9SkOVL4KjsL5AkophUngqT6Eoop2167wGHS41Jwnx=) listen-port 51821",
            "yO9SkOVL4KjsL5AkophUngqT6Eoop2167wGHS41Jwnx=",
        ),
    ],
)
def test_what_sets_73_and_78_showed_is_redacted(text, secret):
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        '"Type": "SecureString",\n"Value": "AQICAHhuIrB/upJ7qDWamw8HgeYJurkuZp24N0zx9NAaKLNUZmc5IDC9lkY5nKq42t",',
        "$ vault login -no-print -method=userpass username=jsmith\nPassword (will be hidden):\n",
        "$ cat ~/.password-store/.gpg-id\n48222E93A5B067B22E24C5B3B31331125873B5D8\n",
        "$ aws ssm get-parameter --name /aws/service/ami-amazon-linux-latest/al2023 --query Parameter.Value --output text\nami-0df4eee286f023f51\n",
        "    - match:\n        secretKey: .dockerconfigjson\n",
        "$ keepassxc-cli ls -R ~/vaults/ops.kdbx Network\nEnter password to unlock /home/a/ops.kdbx:\ncore-sw-01\n",
        "gcloud run deploy c \\\n  --set-secrets=DB_PASSWORD=cloudsql-app-password:4 \\\n  --region=europe-west1",
        "$ op item create --title=g --generate-password='letters,digits,symbols,32' username=admin\n",
        "$ doppler run -- cat .env | cut -d= -f1\nDATABASE_PASSWORD\nDOPPLER_CONFIG\n",
        "  - name: API_DB_PASSWORD\n    value: berglas://acme-secrets/api-db-password\n",
        "set security ike policy <policy-name> pre-shared-key (ascii-text | hexadecimal) <key>\n",
        "        set psksecret <hidden by exporter>\n",
        "pre-shared-key ascii-text /* SECRET-DATA */;\n",
        "\t\t\t<authorizedkeys>c3NoLWVkMjU1MTkgQUFBQUMzTnphQzFsWkRJMU5URTVBQUFBSUp3bjhna3dO</authorizedkeys>",
        "    const s = secretsmanager.Secret.fromSecretNameV2(this, 'DbSecret', 'prod/db');\n",
        'Environment=RESTIC_PASSWORD_COMMAND="pass show backup/restic"\nEnvironment=RESTIC_REPOSITORY=b2:x:/restic\n',
        "The JOB statement PASSWORD parameter: PASSWORD=(password,new-password).\n",
    ],
)
def test_what_sets_73_and_78_showed_is_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # data pipelines (set 72)
        (
            "<property>\n  <name>fs.s3a.secret.key</name>\n  <value>UUYCeexLbZOZz9zoCIL0NjBKyTnQfEzRSnwKxsiz</value>",
            "UUYCeexLbZOZz9zoCIL0NjBKyTnQfEzRSnwKxsiz",
        ),
        (
            "$ hadoop credential create fs.s3a.secret.key -value D7+gLCox9L6m/DsLY3tdI8yXhpikBxCCbWaLfMDv -provider jceks://x",
            "D7+gLCox9L6m/DsLY3tdI8yXhpikBxCCbWaLfMDv",
        ),
        ('{"name": "db.password", "sensitive": true, "value": "Sequoia-Grove-403"}', "Sequoia-Grove-403"),
        (
            "    Shared_Key  "
            + "x/Rn21PVlP6FwQzGfINNbpDPW3d01FAQzwzfUAIWGtt1vgTetihcYy6wo3I8/XId6z/CW4Xw7RBFTCcOKXTaKQ==",
            "x/Rn21PVlP6FwQzGfINNbpDPW3d01FAQzwzfUAIWGtt1vgTetihcYy6wo3I8/XId6z/CW4Xw7RBFTCcOKXTaKQ==",
        ),
        (
            '    token-value: "dbtc_F1tdt8z2Y--wQ3VTRLoDntQ-Wviwlm-l_3jO092xFprIkwDptiubw4"',
            "dbtc_F1tdt8z2Y--wQ3VTRLoDntQ-Wviwlm-l_3jO092xFprIkwDptiubw4",
        ),
        ('Secret(value="Debez!umCDC#22").save(name="warehouse-password")', "Debez!umCDC#22"),
        # mobile and game builds (set 74)
        ('    ENV["MATCH_PASSWORD"] ||= "Tern!Harbor#Prod7"', "Tern!Harbor#Prod7"),
        ("keyPassword keystoreProperties['keyPassword'] ?: 'ShipIt!Friday24'", "ShipIt!Friday24"),
        ("STEAM_PUBLISHER_KEY=5B6CC5B33E1FE44213FF7B9900C70EBE\n", "5B6CC5B33E1FE44213FF7B9900C70EBE"),
        (
            '  -keystorePath "D:\\k.keystore" -keystorePass "QuietMeadow#2211" -keyaliasName r',
            "QuietMeadow#2211",
        ),
        ("password ..... Lighthouse!Owl59\n", "Lighthouse!Owl59"),
        (
            'echo "ilCCaEhBzOsB8trNYGL49aKfj9gdhULJ" | ugs login --service-key-id 37b1fa4e --secret-key-stdin',
            "ilCCaEhBzOsB8trNYGL49aKfj9gdhULJ",
        ),
        # helpdesk and MSP work (set 77)
        (
            "RecoveryPassword: 718828-398178-399454-280819-557788-394163-685223-421234\n",
            "718828-398178-399454-280819-557788-394163-685223-421234",
        ),
        ('C:\\Temp>certutil -f -p "NdesScep!Walnut-49" -importpfx "C:\\Temp\\x.pfx"', "NdesScep!Walnut-49"),
        (
            "Connect-NinjaOne -Instance eu -ClientSecret 'E7inLKJEnj38xViSd74k7YliEmfcM_xpSF'",
            "E7inLKJEnj38xViSd74k7YliEmfcM_xpSF",
        ),
        (
            '    -TunnelType L2tp -L2tpPsk "Workbench&Lathe-2020" -AuthenticationMethod MSChapv2',
            "Workbench&Lathe-2020",
        ),
        (
            '"GivenName","Surname","UPN","InitialPassword"\n"Ffion","Griffiths","f@a.uk","Dragon-Daffodil-72"\n',
            "Dragon-Daffodil-72",
        ),
        (
            "| SSID | Band | PSK | VLAN |\n|---|---|---|---|\n| KD-Staff | 5 | Tern-Wharf-3382 | 20 |\n",
            "Tern-Wharf-3382",
        ),
        (
            "HP-2530(config)# password manager user-name mgr plaintext Procurve#Limpet32\n",
            "Procurve#Limpet32",
        ),
        # frontends and logs (sets 71 and 76)
        (
            ".example.tv\tTRUE\t/\tTRUE\t1767225600\tsv_session\ttlm2dyi1cbzcabqwd7hnxrc52xzmoaoxnxjtl1n3\n",
            "tlm2dyi1cbzcabqwd7hnxrc52xzmoaoxnxjtl1n3",
        ),
        (
            '$s.Cookies.Add((New-Object System.Net.Cookie("PHPSESSID", "1foeegy6sdaq6w6s9kxq7m10bh", "/", "x")))',
            "1foeegy6sdaq6w6s9kxq7m10bh",
        ),
        (
            '    "chromatic": "npx chromatic --project-token=chpt_9d8e22aeb72982 --exit-zero-on-changes"',
            "chpt_9d8e22aeb72982",
        ),
        (
            "$ npx cypress run --record --key b0e4524e-f46b-4e19-89d8-5020e0ae99a5 --parallel",
            "b0e4524e-f46b-4e19-89d8-5020e0ae99a5",
        ),
        (
            'var Sa = "AC6dc76c02346c37e54834cf82e2f6452d",\n    Ea = "d78fa99aaefedcdc6939397393a45b8e";',
            "d78fa99aaefedcdc6939397393a45b8e",
        ),
        (
            'const uri = "mongodb+srv://app:" + encodeURIComponent("Pr0d-Deploy!Falcom") + "@c0.x.mongodb.net/s";',
            "Pr0d-Deploy!Falcom",
        ),
        (
            '    Property: spring.datasource.hikari.password\n    Value: "Pumpkin-Spice-11!"\n',
            "Pumpkin-Spice-11!",
        ),
        ('  Parameters: {"user"=>{"login"=>"m.keller", "pass"=>"Teapot!Short5"}}', "Teapot!Short5"),
        (
            "SERVER -> CLIENT: 334 UGFzc3dvcmQ6\nCLIENT -> SERVER: Q2lubmFtb24tUm9sbC00VQ==\n",
            "Q2lubmFtb24tUm9sbC00VQ==",
        ),
        (
            "const headers = { Authorization: 'Bearer 2/6160601193074681/8424727538138461:394d592daa22d2ce73610b1907730a1f' };",
            "2/6160601193074681/8424727538138461:394d592daa22d2ce73610b1907730a1f",
        ),
    ],
)
def test_what_sets_71_72_74_76_and_77_showed_is_redacted(text, secret):
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "# Auth.js\nAUTH_SECRET= # run `npx auth secret` or `openssl rand -base64 32`\nAUTH_GITHUB_ID=\n",
        'DATABASE_URL="postgresql://USER:PASSWORD@localhost:5432/DBNAME?schema=public"\n',
        "token_accessor       4upxvrLM3TATWibNsIhA0GOj\n",
        '  -H "Authorization: Bearer secret-token:<your workspace token>"\n',
        '  auth.flow      (string)  "password" or "oauth"\n',
        "  auth.password  (string)  API token        [env: TAP_JIRA_AUTH_PASSWORD] (sensitive)\n",
        "  <name>hadoop.security.credential.provider.path</name>\n  <value>jceks://hdfs@nn1:8020/user/etl/s3a.jceks</value>",
        'subprocess.run(["apksigner", "sign", "--ks", ks_path, "--ks-pass", "stdin", apk])',
        "fetched manifest launchAsset.key=b4e0ffd5d62fb063cf4b9e45d6e387c3 ok\n",
        "gcloud secrets versions access latest --secret=play-publisher-json --project=ci > /tmp/p.json",
        "BitLocker key ID: 5B080A57-5046-459A-98FF-E8095A6FE177\n",
        "    update_password: always\n",
        "Set-ADAccountPassword -Identity $sam -Reset -NewPassword (New-RandomPassword | ConvertTo-SecureString -AsPlainText -Force)",
        "Graph delta link: https://graph.microsoft.com/v1.0/users/delta()?$deltatoken=kzAzdyOVNgbKzcWI3goW3rbGLDGi6KXF41zA7lvCAw0q",
        "*Comment* Sure, the password is ~removed~ I'll call you.\n",
        'Example header:  Authorization: Basic base64("{email_address}/token:{api_token}")',
        "$Pass = Ninja-Property-Get localAdminPassword\n",
        '<Parameter name="Command" value="net user kadmin #global:kadminPass# /add" />',
        "        out of a short password. Instead you should use large random\n        secret keys.\n",
        '"output_token": "StreamDescription.Shards[-1].ShardId",',
        "MLKEM768X25519PrivateKey = rust_openssl.hpke.MLKEM768X25519PrivateKey\n",
        '    "Content": "Testing engagements via CLI",\n',
        '  --name "MyConvertedParameter" \\\n  --value "abc123" \\\n  --type String',
    ],
)
def test_what_sets_71_72_74_76_77_and_real_code_showed_is_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # VoIP and IoT (set 82)
        ('con = ESL.ESLconnection("10.0.4.2", "8021", "Tr3ll1s-Ember-88")', "Tr3ll1s-Ember-88"),
        (
            "const ami = new AsteriskManager(5038, 'pbx.local', 'admin', 'Quokka-Dune-412', true);",
            "Quokka-Dune-412",
        ),
        ("sipp -sn uac -s 2001 -au 2001 -ap Lantern7Kite 10.0.0.5:5060", "Lantern7Kite"),
        ("Register String: 7781:Vx9pQ2mL4t@sip.voip.example:5060/7781", "Vx9pQ2mL4t"),
        ('AT+KEY=APPKEY,"2B7E151628AED2A6ABF7158809CF4F3C"', "2B7E151628AED2A6ABF7158809CF4F3C"),
        ("mac set nwkskey 8c1e4f0a9d2b7c6e5f3a1b0d9e8f7a6c", "8c1e4f0a9d2b7c6e5f3a1b0d9e8f7a6c"),
        (
            "export TELNYX_API_KEY=KEY0186F3B2C9D94E7A8B1C2D3E4F5A6B7C_Ab3dE5gH7jK9mN1pQ3rS5tU",
            "KEY0186F3B2C9D94E7A8B1C2D3E4F5A6B7C_Ab3dE5gH7jK9mN1pQ3rS5tU",
        ),
        ("emqx ctl admins passwd admin Marigold-Sway-61", "Marigold-Sway-61"),
        ("mqttx pub -t plant/line3 -h broker.local -u sensor -P Hq2Wn7Zr4Tp", "Hq2Wn7Zr4Tp"),
        (
            'options.setUserName("gw-07");\noptions.setPassword("Orchid-Pylon-39".toCharArray());',
            "Orchid-Pylon-39",
        ),
        # education (set 83)
        (
            "php admin/cli/cfg.php --name=bind_pw --set='Saffron#Ledger22' --component=auth_ldap",
            "Saffron#Ledger22",
        ),
        (
            'curl -H "AERIES-CERT: 8f3k2m9q0w1e4r7t6y5u2i3o8p9a0s1d" https://sis.example.edu/api/v5/schools',
            "8f3k2m9q0w1e4r7t6y5u2i3o8p9a0s1d",
        ),
        (
            "mysql> INSERT INTO lti_tools (name, consumer_key, shared_secret)\n    -> VALUES ('Quizlet', 'qz-key', 'Tundra!Vessel73');",
            "Tundra!Vessel73",
        ),
    ],
)
def test_what_sets_82_and_83_showed_is_redacted(text, secret):
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        '"ClientToken": "4752b573-40a6-4eac-a8a4-a72058761219"',
        "| svc-backup | password | sealed envelope, fire safe |\n",
        "Welcome to the portal. Your id_token for deployment 41: 3f9a1c2e8b7d6f5a4c3b2a1f0e9d8c7b\n",
        "DB_PASSWORD=change_this\n",
        "remote_password CHANGE_THIS_BEFORE_DEPLOY\n",
        '{"subject": "CN=api.example.com", "certificate": "477abe9e7d27439681d62f4e0de1f5e1"}',
        "AppKey: (generated on first join)\n",
    ],
)
def test_what_sets_82_and_83_and_real_code_showed_is_left_alone(text):
    assert find_secrets(text) == []


def test_a_table_cells_passphrase_with_a_sign_is_not_taken_for_a_remark():
    header = "| account | password | notes |\n|---|---|---|\n"
    assert "Blue moon rising!" not in redact(header + "| svc-backup | Blue moon rising! | x |\n")
    assert find_secrets(header + "| svc-backup | sealed envelope, fire safe | x |\n") == []
