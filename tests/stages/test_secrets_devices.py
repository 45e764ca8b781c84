"""What sets 95 to 102 showed (docs/redaction.md, fourteenth pass): mainframes and schedulers
(mainframe.py), office devices and access control (devices.py), firmware and fleets (firmware.py),
chat servers (chat.py), and the near misses beside them. Values here are typed or generated for the
test."""

from __future__ import annotations

import pytest

from pica.stages.secrets import find_secrets, redact


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # mainframes, IBM i, schedulers
        ("CHGUSRPRF USRPRF(FTPPAYX) PASSWORD(Lark5pur-Hill) PWDEXPITV(*NOMAX)\n", "Lark5pur-Hill"),
        ("  TSO ALU SVCCICS PASSWORD(C1CSRUN5) NOEXPIRED\n", "C1CSRUN5"),
        (
            "ALTUSER DBADM2 PHRASE('Copper kettle rides the 7:15 south') NOEXPIRED\n",
            "Copper kettle rides the 7:15 south",
        ),
        (
            "RUNRMTCMD CMD('x') RMTLOCNAME('10.1.4.22' *IP) RMTUSER(EDISVC) RMTPWD('Pq8$Summer')\n",
            "Pq8$Summer",
        ),
        ("DEFINE AUTHINFO(L) AUTHTYPE(IDPWLDAP) LDAPUSER('svc') LDAPPWD('Bnd#Ord3rQ8')\n", "Bnd#Ord3rQ8"),
        ("  SIGNON USERID=(NDMBAT,Nd7mB4ty) ESF=NO\n", "Nd7mB4ty"),
        ("       01  WS-PASSWORD         PIC X(18) VALUE 'Trg7#pLm3Q'.\n", "Trg7#pLm3Q"),
        ("           MOVE 'Fg7#Lkr3'    TO WS-DB-PWD\n", "Fg7#Lkr3"),
        ("dcl-s rmtPwd  char(128) inz('Sl8te&Mortar45');\n", "Sl8te&Mortar45"),
        (
            "//FTPSTEP EXEC PGM=FTP\n//INPUT    DD *\nftp.bank.example\nachxfer Zq4#Lm9x\nPUT 'A.B'\n",
            "Zq4#Lm9x",
        ),
        ('( echo "user svcxfer Sunny-Meadow-83"; echo "bye" ) | ftp -n 10.0.0.9\n', "Sunny-Meadow-83"),
        ('dtexec /F "D:\\SSIS\\Load.dtsx" /DECRYPT "Pkg#Crypt2024" /REPORTING EW\n', "Pkg#Crypt2024"),
        ('  /Par "$Project::SftpPassword";"Lockb0x#Remit8" ^\n', "Lockb0x#Remit8"),
        ("mysql_password;Web$hop-Talend8\n", "Web$hop-Talend8"),
        ('cf.setStringProperty(WMQConstants.PASSWORD, "Ord3rs#Qm2Feb");\n', "Ord3rs#Qm2Feb"),
        (
            "ctm env add qa https://ctm-qa.example:8443/automation-api qa_deployer Qa#Deploy-3382\n",
            "Qa#Deploy-3382",
        ),
        (
            "$ua->credentials('reports.example:443', 'Reports', 'rptfetch', 'F3tch!Reports2');\n",
            "F3tch!Reports2",
        ),
        ("expdp system/'Exp0rt!Sys25'@FINPRD schemas=FIN\n", "Exp0rt!Sys25"),
        # office devices and access control
        ("[snmp]\n  write_community: rw-Apc-Shutd0wn2\n", "rw-Apc-Shutd0wn2"),
        ("User1Name=zabbix\nUser1AuthPhrase=Zbx-Ups-Phrase8\n", "Zbx-Ups-Phrase8"),
        ('! U1 setvar "wlan.wpa.wpa_psk" "Zebra-Pack-Line4!"\n', "Zebra-Pack-Line4!"),
        ("MONITOR ups@10.4.0.2 1 monuser UpsMonUser!56x secondary\n", "UpsMonUser!56x"),
        ("  Network Key        : Prn$Wireless-2024-Q1\n", "Prn$Wireless-2024-Q1"),
        (
            '    {"port": 1, "osdp": {"scbk": "5603C0B5B73550A13ACC4A250FFCEF71"}}\n',
            "5603C0B5B73550A13ACC4A250FFCEF71",
        ),
        ("sector = 7\nkey_a = 644EEBFFBA88\n", "644EEBFFBA88"),
        ("    Password ................... kM7!xq2Rv9Lq   [x] Password is changed.\n", "kM7!xq2Rv9Lq"),
        # firmware and fleets
        (
            'config WIFI_PASSWORD\n        string "WiFi Password"\n        default "Conveyor%Belt%13"\n',
            "Conveyor%Belt%13",
        ),
        ('EXTRA_USERS_PARAMS = "usermod -P BeaconTide45 root; "\n', "BeaconTide45"),
        (
            "fw_setenv provisioning_key 557c50bc14353b76eff236ffe8642ed6d188f477610886a65971f6ac63830976\n",
            "557c50bc14353b76eff236ffe8642ed6d188f477610886a65971f6ac63830976",
        ),
        ("build_flags =\n  -D CLIENT_PASS='\"Spotlight-Gel-418\"'\n", "Spotlight-Gel-418"),
        ("[[[  Xylo-Fern-Quartz-89  ]]] vendor/acme/security/releasekey\n", "Xylo-Fern-Quartz-89"),
        ('uart:~$ wifi connect -s "Lab AP" -k 1 -p Solder-Flux-Reel8\n', "Solder-Flux-Reel8"),
        ("hawkbit.security.user.admin.password={noop}Update-Gate-7302\n", "Update-Gate-7302"),
        # chat servers, app backends, geodata
        ("syt_am8_uWIYSPNuZKSinLqTEPbY_1WRlV7\n", "syt_am8_uWIYSPNuZKSinLqTEPbY_1WRlV7"),
        (
            'matrix_synapse_signing_key: "ed25519 a_HFdf TpbrcDEnZ8rqEKZoC4arb8VXEUm8j2ZyKSCAnu13yvx"\n',
            "TpbrcDEnZ8rqEKZoC4arb8VXEUm8j2ZyKSCAnu13yvx",
        ),
        ("/oper root Tidal.Basil.405\n", "Tidal.Basil.405"),
        ("$ ejabberdctl register notifier example.org Sparrow+Kettle+607\n", "Sparrow+Kettle+607"),
        ("$ ./pocketbase superuser upsert ops@example.io 'Quartz-Owl-7732!'\n", "Quartz-Owl-7732!"),
        (
            "url: https://cds.climate.copernicus.eu/api\nkey: 249233:36c3ebda-7b76-4b40-8e1c-48d903a9fcf8\n",
            "249233:36c3ebda-7b76-4b40-8e1c-48d903a9fcf8",
        ),
        (
            'gis = GIS("https://gis.example.gov/portal", "gisadmin_svc", "Cedar!Ridge#2025")\n',
            "Cedar!Ridge#2025",
        ),
        (
            "gdalinfo --config AWS_SECRET_ACCESS_KEY 2o8HzpGSNHOienCaehfBGw/gwIX0pVKAdMrg+xF4 /vsis3/b/x.tif\n",
            "2o8HzpGSNHOienCaehfBGw/gwIX0pVKAdMrg+xF4",
        ),
    ],
)
def test_what_sets_95_to_102_showed_is_redacted(text, secret):
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "exec sql connect to :rmtDb user :rmtUsr using :rmtPwd;\n",
        " PASSWORD ENVELOPED=NO\n",
        "@reboot /opt/ctm/agent/start-ag -u ctmagent -p ALL\n",
        "$ pmrep connect -r REP -d Domain -n repadmin -X INFA_REPCNX_PWD\n",
        "qmgr = pymqi.connect('QMINV01', 'INV.PY.SVRCONN', 'mq.example(1414)', 'invpy', password)\n",
        '    "Password": { "Secret": "ctm_fin_oracle_pw" }\n',
        "//SYSIN    DD *\n  INCLUDE COND=(1,8,CH,EQ,C'PASSWORD',AND,20,3,CH,EQ,C'REV')\n",
        ': "${UPS_COMMUNITY:?UPS_COMMUNITY must be set}"\n',
        "SNMP version: v2c   Community: (set)   Port: 161 UDP\n",
        "  preshared key: (hidden)\n",
        'def cn_soundarajan_hopcroft(G, ebunch=None, community="community"):\n',
        "    >>> input = torch.tensor([[[1, 2, 3, 4, 5, 6, 7]]], dtype=torch.float)\n",
        "    def password(self) -> str | None:\n",
        "aws autoscaling complete-lifecycle-action --lifecycle-action-token bcd2f1b8-9a78-44d3-8a7a-4dd07d7cf635\n",
        "    password: \"{{ lookup('hashi_vault', 'secret=secret/data/ups/idf2:password') }}\"\n",
        "sync token: s520616_1269055_0_89652_41995_2990_9119_37306_0_1\n",
        '\tpassword "71:e6:90:58:5b:53:5a:19:29:d3:4a:a3:0e:2e:1b:40" { certfp; };\n',
        '  "AUTH0_CLIENT_SECRET": "##AUTH0_CLIENT_SECRET##",\n',
        "password <INSERT SECRET TOKEN>\n",
    ],
)
def test_what_sets_95_to_102_showed_is_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # set 109, certificates and tokens (pki.py), read after its first look
        ('        "-passout", "pass:t0ucan-Sunrise-85",\n', "t0ucan-Sunrise-85"),
        ("keytool -list -v -keystore k.jks -storepass Granite&Moss48 | grep Alias\n", "Granite&Moss48"),
        ('  -key "pkcs11:token=test-ca;object=root-key;type=private;pin-value=755455" \\\n', "755455"),
        ("softhsm2-util --init-token --slot 0 --label signing --pin 'MapleSyrup#Q5'\n", "MapleSyrup#Q5"),
        ("ykman piv access unblock-pin --puk 13576938\n", "13576938"),
        (
            "pkcs11-tool --module /usr/lib/softhsm/libsofthsm2.so -l -p 122CjDrn9 --list-objects\n",
            "122CjDrn9",
        ),
        (
            'signtool sign /fd sha256 /f signing.pfx /p "Lemonade-Stand-47" out\\app.exe\n',
            "Lemonade-Stand-47",
        ),
        ("aws-cloudhsm > loginHSM CU app_signer Bergamot#Earl13\n", "Bergamot#Earl13"),
        ("export CLOUDHSM_PIN=svc_codesign:Hedgehog#Winter24\n", "Hedgehog#Winter24"),
        ('    encryption_algorithm=BestAvailableEncryption(b"M0nday$Standup2"),\n', "M0nday$Standup2"),
        ("with token.open(user_pin='Lighthouse78#Keys') as session:\n", "Lighthouse78#Keys"),
        (
            "  --eab-hmac-key zUpo7EY97PY93sbzVNQaEw0TtnYpfsfPxbtP7pz9Rnf7VsG0KVM0Md \\\n",
            "zUpo7EY97PY93sbzVNQaEw0TtnYpfsfPxbtP7pz9Rnf7VsG0KVM0Md",
        ),
        ("        <gpg.passphrase>Umber_Falcon_708</gpg.passphrase>\n", "Umber_Falcon_708"),
        ('    KAFKA_SSL_KEYSTORE_PASSWORD: "Tokyo-Drift-Keys8"\n', "Tokyo-Drift-Keys8"),
    ],
)
def test_what_set_109_showed_is_redacted(text, secret):
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "pkcs11:model=p11-kit-trust;manufacturer=PKCS%2311%20Kit;serial=1;token=System%20Trust\n",
        'session.login(UserType::User, Some(&AuthPin::new(std::env::var("HSM_USER_PIN")?.into())))?;\n',
        '            entered_pin = request.args["pin"]\n',
        "keytool -list -keystore t.jks -storepass:file /root/.kspass\n",
    ],
)
def test_what_set_109_showed_is_left_alone(text):
    assert find_secrets(text) == []


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        # sets 105-110, read in part after their first look: DNS updates and VPN meshes (tunnels.py)
        (
            '*/10 * * * * curl -s "https://sync.afraid.org/u/NPx7mJCtVZmdRtD5x1uaoIbi/"\n',
            "NPx7mJCtVZmdRtD5x1uaoIbi",
        ),
        (
            "nsupdate -y hmac-sha256:ddns-key.example.org:nOFkUaPPsb+jdWqRaWJyd+b3mPQwyB3EpJp87C+hj0B= <<EOF\n",
            "nOFkUaPPsb+jdWqRaWJyd+b3mPQwyB3EpJp87C+hj0B=",
        ),
        (
            'keyring = dns.tsigkeyring.from_text({"acme-update.": "0b633vMppIJcLpdAkxCOsMz369Ftma4IJUGBpJW8mA1="})\n',
            "0b633vMppIJcLpdAkxCOsMz369Ftma4IJUGBpJW8mA1=",
        ),
        (
            "sudo netbird up --setup-key EAE6A5FC-CC1D-4D75-AECA-887990C7554B --management-url https://nb.example\n",
            "EAE6A5FC-CC1D-4D75-AECA-887990C7554B",
        ),
        ("./frpc tcp -s 203.0.113.10:7000 -t NE7qFZEwYuuxQU6RCo9e -l 3389\n", "NE7qFZEwYuuxQU6RCo9e"),
        (
            "\toption private_key 'sylqgPZqj1Z8udGFlmErgB/bUidDjs0ozsgHy4oLTR5='\n",
            "sylqgPZqj1Z8udGFlmErgB/bUidDjs0ozsgHy4oLTR5=",
        ),
        ('oathtool --totp -b "TSKDB2BC33COALBJ3K6H5OB5D4BBQLSI"\n', "TSKDB2BC33COALBJ3K6H5OB5D4BBQLSI"),
        # a keyed value inside a dotted call that is itself a keyed value
        (
            '    auth_client_secret=weaviate.AuthApiKey(api_key="g2reTfyDLg0Ra83XQJaTb4swFTviXlhOmUAwDOFV"),\n',
            "g2reTfyDLg0Ra83XQJaTb4swFTviXlhOmUAwDOFV",
        ),
        (
            "const trello = new Trello(key, 'ATTAa4c123b1612dd272d1371c17149d439536b3216fdaeeb975729fae923d5a4fd12AABFE22');\n",
            "ATTAa4c123b1612dd272d1371c17149d439536b3216fdaeeb975729fae923d5a4fd12AABFE22",
        ),
    ],
)
def test_what_sets_105_to_110_showed_is_redacted(text, secret):
    assert secret not in redact(text)


@pytest.mark.parametrize(
    "text",
    [
        "\toption public_key 'zlGkb8YAUhCOGk7j2qLFae8aej72ac8Y+NM8LKV6Bak='\n",
        '  "nodeKey": "nodekey:d46108b866b34af6c414f4332890f4750ce8169e98f6661a2381350bfae78ded",\n',
        "# ddclient for a router that authenticates by source IP (no password needed)\nprotocol=dyndns2\nuse=if\n",
        "              value: tailscale-state\n",
        '    { key: "client_secret", value: clientSecret }\n',
        "  Postman-Token: 42dd42b9-e6d6-4c62-a85b-9d6607895666\n",
        "    Masking-Key: 6cab95e9\n",
        "Authorization: Bearer undefined\n",
        "mutation Login($email: String!, $password: String!) {\n",
        "set AUTH=Authorization: Bearer %WEBEX_BOT_TOKEN%\n",
        "Set-Cookie: oauth_state=2402e21de6a6fb271eb455a1f9ccd7e0; Path=/auth/zoom; HttpOnly\n",
        "ERROR dropbox.exceptions.ApiError: ApiError('2fecfae5af38f8dde5b7c8fd1cfc65c6', ListFolderError('path'))\n",
        '-> {"plainToken":"ZSSrrdKQ2rtpFkXQ6c4ChN","encryptedToken":"dfab61600f1fee3ba1e2c13083aa064d6ab32f5dd57cacf76a0c89bbcd1fffd7"}\n',
        'backup pin: pin-sha256="dXt3cNbCT+56OBQF0Dz+IvrFG1/KLIvYMclZ4qTYI4H="\n',
    ],
)
def test_what_sets_105_to_110_showed_is_left_alone(text):
    assert find_secrets(text) == []
