"""What sets 87 to 94 showed (docs/redaction.md, fourteenth pass): mail servers (mail.py), Windows
administration (windows.py), test automation (qa_tools.py), message brokers and search clusters
(brokers.py), web3 (wallets.py), CI variables; a secret found once is redacted wherever else it
stands; and the near misses beside them. Values here are typed or generated for the test."""

from __future__ import annotations

import pytest

from pica.stages.secrets import find_secrets, redact


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # mail servers
        (
            "postconf -e 'smtp_sasl_password_maps = static:alerts@example.org:Lantern-Quay-58'\n",
            "Lantern-Quay-58",
        ),
        (
            'AuthInfo:smtp.example.net "U:relay" "I:relay@example.net" "P:Fjord#Otter31" "M:LOGIN PLAIN"\n',
            "Fjord#Otter31",
        ),
        ("  client_send = : relay@example.com : Copper_Relay_2031\n", "Copper_Relay_2031"),
        ("zmprov -l -a admin@example.org -p 'Harbor!Mail#77' gaa example.org\n", "Harbor!Mail#77"),
        ("zmprov sp jdoe@example.org Pelican.Shore.93\n", "Pelican.Shore.93"),
        (
            "swaks -t a@example.com -s smtp.example.com:587 -au bot@example.com -ap Kestrel-Mail-64 --tls\n",
            "Kestrel-Mail-64",
        ),
        ('* OK IMAP ready\na1 LOGIN clerk@example.com "Clerk_Desk_42"\na1 OK\n', "Clerk_Desk_42"),
        (
            "A01 AUTHENTICATE PLAIN AGpkb2VAZXhhbXBsZS5jb20AU2VjcmV0LlBhc3MuOTk=\n",
            "AGpkb2VAZXhhbXBsZS5jb20AU2VjcmV0LlBhc3MuOTk=",
        ),
        ("Here is the app password for Thunderbird:\nqwrt zxcv bnmk plkj\n", "qwrt zxcv bnmk plkj"),
        ("dnpass = Tern$hore#Ldap4\n", "Tern$hore#Ldap4"),
        # Windows administration
        (
            'Set objWMI = loc.ConnectServer(host, "root\\cimv2", "CORP\\svc_inv", "1nventory*Frost")\n',
            "1nventory*Frost",
        ),
        (
            'new PrincipalContext(ContextType.Domain, "corp.example.com", "CORP\\\\svc_app", "App+Reset-62")\n',
            "App+Reset-62",
        ),
        (
            'var cert = new X509Certificate2(@"C:\\certs\\sign.pfx", "S1gning-Oak.Birch", flags);\n',
            "S1gning-Oak.Birch",
        ),
        ("folder.RegisterTaskDefinition('Nightly', def, 6, 'CORP\\svc_task', 'Br00m&Mop', 1)\n", "Br00m&Mop"),
        ("C:\\Tools\\Autologon64.exe kiosk LOBBY-PC 'Lobby#Kiosk22' /accepteula\n", "Lobby#Kiosk22"),
        (
            'setup.exe /Q /ACTION=Install /SECURITYMODE=SQL /SAPWD="Unattended$Sa44" /IACCEPTSQLSERVERLICENSETERMS\n',
            "Unattended$Sa44",
        ),
        (
            "setx AZURE_DEVOPS_EXT_PAT q2w3e4r5t6y7u8i9o0p1a2s3d4f5g6h7j8k9l0z1x2c3v4b5n6m7\n",
            "q2w3e4r5t6y7u8i9o0p1a2s3d4f5g6h7j8k9l0z1x2c3v4b5n6m7",
        ),
        (
            "netsh wlan set hostednetwork mode=allow ssid=EXPO key=Booth#Expo2024 keyUsage=persistent\n",
            "Booth#Expo2024",
        ),
        ("Name          : SRV-07\nms-Mcs-AdmPwd : 8k,Tq%-zR[!w2iE\n", "8k,Tq%-zR[!w2iE"),
        (
            'New-CMDeviceCollectionVariable -VariableName "BIOSPassword" -Value "Latitude$Bios7" -IsMask $false\n',
            "Latitude$Bios7",
        ),
        ("C:\\>net user jdoe Atlantic.Tern.71 /domain\n", "Atlantic.Tern.71"),
        (
            "Connect-VIServer -Server vc01 -User admin@vsphere.local -Password 'VSphere#Glacier-8'\n",
            "VSphere#Glacier-8",
        ),
        ('$pw = ConvertTo-SecureString -AsPlainText -Force -String "Vm-Direct=Slate4"\n', "Vm-Direct=Slate4"),
        (
            "[Convert]::ToBase64String([Text.Encoding]::ASCII.GetBytes('root:Redfish-Oob!Moth'))\n",
            "Redfish-Oob!Moth",
        ),
        ("DomainAdminDomain=CORP\nDomainAdminPassword=MdtJ0in.Heron\n", "MdtJ0in.Heron"),
        # test automation
        ('page.fill("input[name=\'password\']", "Mangoes4Lunch!")\n', "Mangoes4Lunch!"),
        ('await Page.Locator("#Input_Password").FillAsync("Qu1ll#Adm");\n', "Qu1ll#Adm"),
        ('driver.findElement(By.id("login_pass")).sendKeys("Corv@ne2020!erp");\n', "Corv@ne2020!erp"),
        ("fill_in 'Password', with: 'PineCart-Buyer-78'\n", "PineCart-Buyer-78"),
        ("      password: await bcrypt.hash('Tidal#Ops!2025', 10),\n", "Tidal#Ops!2025"),
        ("            'password' => Hash::make('Brook-QA-mgr2'),\n", "Brook-QA-mgr2"),
        (
            "*** Variables ***\n${USERNAME}       robot.tester\n${PASSWORD}       Quarry!Robot2024\n",
            "Quarry!Robot2024",
        ),
        ('    totp = pyotp.TOTP("JBSW4Y3DPEHPK3PX")\n', "JBSW4Y3DPEHPK3PX"),
        ("./BrowserStackLocal --key dkmx9OEuVFwuAiqRndHz --force-local\n", "dkmx9OEuVFwuAiqRndHz"),
        (
            "locust -f locustfile.py --web-auth perf:Tr!dent-Load-62 --host https://x.example\n",
            "Tr!dent-Load-62",
        ),
        ('{"type": "password", "value": "KcE2E-Tester!315", "temporary": false}', "KcE2E-Tester!315"),
        # brokers and search
        (
            "$ nk -gen user\nSUAX7ONF6LF3H36UBOL66WZNANQ4NROITCSYL6DY3NQFO2UM6BBTF743YZ\n",
            "SUAX7ONF6LF3H36UBOL66WZNANQ4NROITCSYL6DY3NQFO2UM6BBTF743YZ",
        ),
        (
            '  org.apache.kafka.common.security.plain.PlainLoginModule required\n  user_admin="Fjord!Harbor585";\n',
            "Fjord!Harbor585",
        ),
        ('    {default_pass, <<"fjord_maple_349">>},\n', "fjord_maple_349"),
        ("rabbitmqctl authenticate_user monitoring RedisIsland97*\n", "RedisIsland97*"),
        ("valkey-cli -a QJ3kuIBSDOxaoK3Fx6F1 --no-auth-warning CLUSTER INFO\n", "QJ3kuIBSDOxaoK3Fx6F1"),
        (
            "Password for the [elastic] user successfully reset.\nNew value: R6I0U+qImQlZlJOaHuo7\n",
            "R6I0U+qImQlZlJOaHuo7",
        ),
        ('      RABBITMQ_ERLANG_COOKIE: "LAJRPFKHLLKZVQCJIMGE"\n', "LAJRPFKHLLKZVQCJIMGE"),
        ("curl -ku 'admin:Willow.Mosaic.2021' https://localhost:9200/\n", "Willow.Mosaic.2021"),
        # web3
        (
            '>>> dev = accounts.add("0x634a1d1a404ba9c1c72647e6b8c59092464947162b7963e38d506522ea8ca14c")\n',
            "634a1d1a404ba9c1c72647e6b8c59092464947162b7963e38d506522ea8ca14c",
        ),
        (
            'const pk = process.env.TREASURY_PK || "0x432bc130522c6c9ccc09b56633a86cac28907a060891b4bc3f544149de3bb76c";\n',
            "432bc130522c6c9ccc09b56633a86cac28907a060891b4bc3f544149de3bb76c",
        ),
        (
            '  jwt.hex: "0x7d1e1e269815aa2b218c49752e40e3d5b6c589ae17b132c0af5228eb40b28cde"\n',
            "7d1e1e269815aa2b218c49752e40e3d5b6c589ae17b132c0af5228eb40b28cde",
        ),
        ("INFURA_PROJECT_ID=99680dd6f9f5c30569c718fd7d070183\n", "99680dd6f9f5c30569c718fd7d070183"),
        (
            '  "SEPOLIA_PRIVATE_KEY": {\n    "value": "0x12595066c57e67074ec6ba70afee2f43da8fc3ed21ab239f12f97fe616f20ba9"\n',
            "0x12595066c57e67074ec6ba70afee2f43da8fc3ed21ab239f12f97fe616f20ba9",
        ),
        # CI variables, .NET configuration, log4net
        (
            "| Key | Value | Protected |\n| PAGERDUTY_ROUTING_KEY | 92a662aa1d7ccc7bb4459e4b99fdfd1e | yes |\n",
            "92a662aa1d7ccc7bb4459e4b99fdfd1e",
        ),
        ('  "Smtp:Password": "Hedgehog#Mail78"\n', "Hedgehog#Mail78"),
        (
            'dotnet user-secrets set "Movies:ServiceApiKey" "2a22e5086cf790be994ce74498daa536"\n',
            "2a22e5086cf790be994ce74498daa536",
        ),
        ('  <password value="SmtpAppender!2019" />\n', "SmtpAppender!2019"),
        # a Mailgun key after `key:` is no cache's key
        (
            "  domain: 'mg.example.shop',\n  key: 'key-44c241001890bf9625ed1664503eacb9'\n",
            "key-44c241001890bf9625ed1664503eacb9",
        ),
        # a secret found once is redacted where it stands again
        (
            "  u.password = 'CobaltDesk$upport2'\n  u.password_confirmation = 'CobaltDesk$upport2'\n",
            "CobaltDesk$upport2",
        ),
    ],
)
def test_what_sets_87_to_94_showed_is_redacted(text, secret):
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "vault login -method=userpass username=ada\n",
        "Service\tLogin\tPassword\t2FA\n",
        'Google shows an app password as four groups of four letters (e.g. "abcd efgh ijkl mnop").\n',
        "    { nkey: UGKW2LDVPNQEPRWDUPXPGV5CHLOGOUKYQN5DAPR5HNGJUIX26LAEM7W4 }\n",
        "key=c5a3f65d-432c-4398-839d-95c1cbc49c23 offset=551 ts=1718290012112\n",
        '    password="REPLACE_ME_AT_DEPLOY"\n',
        "  existingPasswordSecret: rabbitmq-admin\n",
        'New-ADServiceAccount -Name gmsa -PrincipalsAllowedToRetrieveManagedPassword "REPORT-Servers"\n',
        "        Session Key Type: AES-256-CTS-HMAC-SHA1-96\n",
        "    <keyType>passPhrase</keyType>\n",
        "Token deployed to: 0x93584456a1918ec4a7eadc3f3fde4e54b70e81f0\n",
        "--bootnodes enode://84594d651d51424490b6999e9c5e6e1c4f3a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d@10.0.0.5:30303\n",
        "OCR2 Key Bundle ID:   079cca9c7d738606837a5d0de08275b807874ae6d331f175d94518bcccd60efb\n",
        '    "withdrawal_credentials": "01000000000000000000000006d90c6b3d2650cc3fef42bec9309b6ae2a353d8",\n',
        "${LOCATOR_PASSWORD}    id=login-password\n",
        "${password}=    Generate Random String    16    [LETTERS][NUMBERS]\n",
        "const res = await request(app).get('/me').set('Authorization', 'Bearer expired.token.value');\n",
        "encryption_passcommand: secret-tool lookup borg-repository repo-name\nrepositories:\n    - path: /srv/repo\n",
        "            params:\n            - name: secretRef\n              value:\n                secretName: github-webhook\n",
        "GPG_PW='_GPG_PASSWORD_'\n",
        "    AdminPassword: '@@SECRET:@@ENV:DOMAIN_UID@@-weblogic-credentials:password@@'\n",
        "        password: encrypted:vault!e:secret!p:spinnaker/dockerhub!k:password\n",
        "Authorization: Bearer sk_live_****************************3kQz\n",
        '<add name="Crm" connectionString="Server={{ db_host }};User Id={{ db_user }};Password={{ db_password }};" />\n',
        "2024-05-09T11:40:06Z Cache restored from key: Linux-node-70f8702ecf0d10e7fc4b77e6b085caf66e5d90f4d126cbc5\n",
        '    <add key="PaymentGatewaySecret" value="set by environment" />\n',
        "$ echo -n 'build-4821:passed:2024-05-14' | base64\n",
        "Uploading artifacts... 201 Created  id=6123987741 token=glcbt-64\n",
    ],
)
def test_what_sets_87_to_94_showed_is_left_alone(text):
    assert find_secrets(text) == []


def test_a_word_taken_as_a_value_is_not_looked_for_elsewhere():
    # (a URL's sample `user:password` is redacted where it stands; the word in prose stays)
    text = "Replace the sample password with a secure one.\nhttp://user:password@localhost:22\n"
    assert redact(text).startswith("Replace the sample password with a secure one.")
